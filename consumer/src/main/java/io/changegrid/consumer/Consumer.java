package io.changegrid.consumer;

import static io.changegrid.consumer.config.ConsumerSettings.*;

import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.config.StartPosition;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.consumer.dispatch.DeliveryGate;
import io.changegrid.consumer.dispatch.Dispatcher;
import io.changegrid.consumer.pull.Puller;
import io.changegrid.consumer.schema.SchemaCache;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.RelayClient;
import io.changegrid.protocol.SnapshotCursor;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer of one source's change stream, embedded in an application:
 *
 * <pre>{@code
 * Consumer consumer = Consumer.builder()
 *         .relays("http://relay1:7070", "http://relay2:7070")
 *         .subscription(Subscription.tables("shop.*"))
 *         .callback(new OrderTotalsCallback())
 *         .checkpointStore(new FileCheckpointStore(Path.of("orders.checkpoint")))
 *         .build();
 * consumer.start();
 * ...
 * consumer.stop();
 * consumer.awaitTermination(Duration.ofSeconds(10));
 * }</pre>
 *
 * <p>It resumes after its saved checkpoint (or, without one, at the oldest transaction a relay
 * holds, or with a snapshot at the newest when {@code start} is {@code snapshot}: see
 * docs/bootstrap.md), and finishes a snapshot its checkpoint is in. It runs a {@link Puller} thread
 * that long-polls the relays into a bounded consumer buffer, and a {@link Dispatcher} thread that
 * hands whole transactions to the callback in commit order and checkpoints after every batch. It
 * ends on {@link #stop()}, on an error (the callback failed, no relay holds the checkpoint any
 * more, the checkpoint could not be saved: see {@link #failure()}), or when the puller ended and
 * everything buffered was delivered.
 *
 * <p>Threading: the methods may be called from any thread. The callback runs on the dispatcher
 * thread only ({@code <name>-dispatcher}).
 */
public final class Consumer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Consumer.class);
    private static final int MAX_BUFFER_ENTRIES = 4096;

    private final String name;
    private final ConsumerConfig config;
    private final ConsumerCallback callback;
    private final CheckpointStore store;
    private final DeliveryGate gate;
    private final ConsumerBuffer buffer;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private RelayClient http;
    private volatile Puller puller;
    private volatile Dispatcher dispatcher;
    private Thread pullerThread;
    private volatile ConsumerState state = ConsumerState.NEW;
    private volatile ConsumerException failure;

    private Consumer(
            String name,
            ConsumerConfig config,
            ConsumerCallback callback,
            CheckpointStore store,
            DeliveryGate gate) {
        this.name = name;
        this.config = config;
        this.callback = callback;
        this.store = store;
        this.gate = gate;
        this.buffer = new ConsumerBuffer(config.bufferCapacity(), MAX_BUFFER_ENTRIES);
    }

    /** A builder with every setting at its default; relays, callback and store must be given. */
    public static Builder builder() {
        return new Builder();
    }

    /** A consumer from validated settings, e.g. {@link ConsumerConfig#from} a YAML file. */
    public static Consumer create(
            String name, ConsumerConfig config, ConsumerCallback callback, CheckpointStore store) {
        return create(name, config, callback, store, DeliveryGate.ALWAYS_OPEN);
    }

    /**
     * A consumer that delivers only while {@code gate} is open: a consumer-group member's, which
     * stops handing batches to the callback as soon as it cannot be sure it owns the partition.
     */
    public static Consumer create(
            String name,
            ConsumerConfig config,
            ConsumerCallback callback,
            CheckpointStore store,
            DeliveryGate gate) {
        return new Consumer(
                Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(callback, "callback"),
                Objects.requireNonNull(store, "store"),
                Objects.requireNonNull(gate, "gate"));
    }

    /**
     * Loads the checkpoint and starts pulling and dispatching.
     *
     * @throws IOException if the checkpoint cannot be loaded, or the consumer may snapshot and the
     *     store keeps no snapshot cursor; nothing is started then
     * @throws IllegalStateException if started before
     */
    public synchronized void start() throws IOException {
        if (state != ConsumerState.NEW) {
            throw new IllegalStateException("consumer already started: name=" + name);
        }
        if (config.snapshots() && !store.keepsSnapshotCursor()) {
            throw new IOException(
                    "checkpoint store keeps no snapshot cursor, but the consumer may snapshot"
                            + " (start=snapshot or bootstrap.onTooOld=snapshot): store="
                            + store);
        }
        Optional<Checkpoint> checkpoint = store.loadCheckpoint();
        Checkpoint start =
                checkpoint.orElse(
                        config.start() == StartPosition.SNAPSHOT
                                ? new Checkpoint(-1, SnapshotCursor.START)
                                : Checkpoint.at(-1));
        long startScn = start.scn();
        String startTimeline = store.loadTimeline().orElse(null);
        http =
                RelayClient.start(
                        name, config.requestTimeout(), config.fetchGzip(), config.credentials());
        List<SchemaCache> schemas = Puller.schemaCaches(config, http);
        List<SchemaRegistry> registries = new ArrayList<>();
        for (SchemaCache cache : schemas) {
            registries.add(cache.registry());
        }
        puller =
                new Puller(
                        config,
                        buffer,
                        schemas,
                        http,
                        startScn,
                        start.snapshot(),
                        startTimeline,
                        store::adoptTimeline);
        dispatcher = new Dispatcher(config, buffer, registries, callback, store, start, gate);
        pullerThread = new Thread(puller, name + "-puller");
        Thread dispatcherThread = new Thread(this::dispatch, name + "-dispatcher");
        state = ConsumerState.RUNNING;
        pullerThread.start();
        dispatcherThread.start();
        LOG.info(
                "consumer started: name={}, relays={}, subscription={}, checkpoint={}, timeline={},"
                        + " store={}",
                name,
                config.relays(),
                config.subscription(),
                checkpoint.isPresent()
                        ? start
                        : start.inSnapshot() ? "none (snapshot at newest)" : "none (oldest held)",
                startTimeline == null ? "none yet" : startTimeline,
                store);
    }

    /**
     * Asks the consumer to stop: the transaction in progress is finished, its batch checkpointed,
     * and the relay request in flight aborted. Returns at once; see {@link #awaitTermination}.
     */
    public void stop() {
        synchronized (this) {
            if (state == ConsumerState.NEW) {
                state = ConsumerState.STOPPED;
                terminated.countDown();
                return;
            }
            if (state == ConsumerState.RUNNING) {
                state = ConsumerState.STOPPING;
            }
        }
        dispatcher.stop();
        puller.stop();
        buffer.close();
    }

    /** Waits until the consumer stopped; returns false if it still runs after {@code timeout}. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Waits until the consumer stopped. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Stops the consumer and waits until it did; if interrupted meanwhile, returns at once with the
     * thread's interrupt status set.
     */
    @Override
    public void close() {
        stop();
        try {
            awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public ConsumerState state() {
        return state;
    }

    /** Why the consumer stopped on its own, if it did. */
    public Optional<ConsumerException> failure() {
        return Optional.ofNullable(failure);
    }

    /** The validated settings. */
    public ConsumerConfig config() {
        return config;
    }

    /**
     * Zero once everything the relay held at its last answer was delivered and checkpointed: an
     * idle source's last commit grows old, but nothing waits. Otherwise the age of the last
     * checkpointed commit, which on MariaDB is stamped in whole seconds.
     */
    private static long lagMillis(Puller p, Dispatcher d) {
        long checkpointScn = d.checkpointScn();
        if (p.caughtUp() && checkpointScn >= p.position()) {
            return 0;
        }
        long checkpointMicros = d.checkpointTimeMicros();
        return checkpointMicros > 0
                ? Math.max(0, System.currentTimeMillis() - checkpointMicros / 1000)
                : -1;
    }

    /** A snapshot of progress and counters. */
    public ConsumerStatus status() {
        Puller p = puller;
        Dispatcher d = dispatcher;
        if (p == null || d == null) {
            return new ConsumerStatus(
                    state,
                    null,
                    null,
                    -1,
                    -1,
                    null,
                    -1,
                    0,
                    0,
                    0,
                    0,
                    0,
                    buffer.capacity(),
                    0,
                    0,
                    0,
                    null);
        }
        long lag = lagMillis(p, d);
        return new ConsumerStatus(
                state,
                p.state(),
                p.relay().toString(),
                p.position(),
                d.checkpointScn(),
                p.timeline(),
                lag,
                d.eventsDelivered(),
                d.transactionsDelivered(),
                d.batches(),
                d.retries(),
                buffer.usedBytes(),
                buffer.capacity(),
                p.bytesPulled(),
                d.bytesDelivered(),
                d.callbackNanos(),
                SnapshotProgress.at(d.checkpointSnapshot(), d.snapshotRowsDelivered()));
    }

    /** The dispatcher thread: dispatches until done, then takes everything else down. */
    private void dispatch() {
        try {
            dispatcher.run();
        } finally {
            puller.stop();
            buffer.close();
            try {
                pullerThread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                http.close();
            } catch (IOException e) {
                LOG.warn("HTTP client did not stop cleanly: name={}", name, e);
            }
            ConsumerException error =
                    dispatcher.failure() != null ? dispatcher.failure() : puller.failure();
            failure = error;
            state = error == null ? ConsumerState.STOPPED : ConsumerState.FAILED;
            LOG.info(
                    "consumer stopped: name={}, state={}, checkpoint={}, transactions={}, events={}{}",
                    name,
                    state,
                    dispatcher.checkpointScn(),
                    dispatcher.transactionsDelivered(),
                    dispatcher.eventsDelivered(),
                    error == null ? "" : ", error=" + error.getMessage());
            terminated.countDown();
        }
    }

    /**
     * Collects a consumer's settings; {@link #build} validates them all at once against the rules
     * of {@link io.changegrid.consumer.config.ConsumerSettings}, reporting every problem with its
     * key path.
     *
     * <p>Not thread-safe.
     */
    public static final class Builder {

        private final Map<String, Object> settings = new LinkedHashMap<>();
        private List<?> policies = List.of();
        private ConsumerCallback callback;
        private CheckpointStore store;
        private String name = "consumer";

        private Builder() {}

        /** The relays' base URLs ({@code http://host:port}), in failover order. */
        public Builder relays(String... urls) {
            return relays(List.of(urls));
        }

        /** The relays' base URLs ({@code http://host:port}), in failover order. */
        public Builder relays(List<String> urls) {
            settings.put(RELAYS.path(), List.copyOf(urls));
            return this;
        }

        /** The tables or policies, and partition received; default everything. */
        public Builder subscription(Subscription subscription) {
            policies = subscription.policies();
            settings.put(SUBSCRIPTION_TABLES.path(), subscription.tables());
            put(SUBSCRIPTION_PARTITION, subscription.partition());
            put(SUBSCRIPTION_PARTITIONS, subscription.partitions());
            return this;
        }

        /** The consumer buffer's size in bytes. */
        public Builder bufferCapacity(long bytes) {
            return put(BUFFER_CAPACITY, bytes);
        }

        /** The soft size limit of one relay response. */
        public Builder fetchMaxBytes(long bytes) {
            return put(FETCH_MAX_BYTES, bytes);
        }

        /** How long the relay holds a request open while there is nothing new. */
        public Builder pollTimeout(Duration timeout) {
            return put(FETCH_POLL_TIMEOUT, timeout);
        }

        /** How long a relay may take beyond the long-poll wait before the consumer fails over. */
        public Builder requestTimeout(Duration timeout) {
            return put(FETCH_REQUEST_TIMEOUT, timeout);
        }

        /**
         * How long a relay's source time may stay unchanged before the consumer moves to the next
         * relay; zero for never.
         */
        public Builder stallTimeout(Duration timeout) {
            return put(FETCH_STALL_TIMEOUT, timeout);
        }

        /** Waits between rounds of failed relay attempts. */
        public Builder fetchBackoff(Duration initial, Duration max) {
            put(FETCH_BACKOFF, initial);
            return put(FETCH_BACKOFF_MAX, max);
        }

        /** Most transactions per batch, and how long an open batch waits for more. */
        public Builder batching(int maxTransactions, Duration maxWait) {
            put(BATCH_MAX_TRANSACTIONS, maxTransactions);
            return put(BATCH_MAX_WAIT, maxWait);
        }

        /** Waits before delivering again after RETRY. */
        public Builder retryBackoff(Duration initial, Duration max) {
            put(CALLBACK_RETRY_BACKOFF, initial);
            return put(CALLBACK_RETRY_BACKOFF_MAX, max);
        }

        /** RETRYs in a row after which the consumer stops as on FAIL; 0 for no limit. */
        public Builder retryLimit(int limit) {
            return put(CALLBACK_RETRY_LIMIT, limit);
        }

        /** Any setting by its key path, as YAML would give it (e.g. "64MiB", "5s"). */
        public Builder set(String path, Object value) {
            settings.put(path, value);
            return this;
        }

        /** The user's callback. */
        public Builder callback(ConsumerCallback callback) {
            this.callback = callback;
            return this;
        }

        /** Where the checkpoint is kept. */
        public Builder checkpointStore(CheckpointStore store) {
            this.store = store;
            return this;
        }

        /** The name in thread names and logs; default {@code consumer}. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * Validates every setting and builds the consumer (not started).
         *
         * @throws ConfigException listing every problem, each naming its key
         */
        public Consumer build() {
            List<String> problems = new ArrayList<>();
            if (callback == null) {
                problems.add("missing: callback (Consumer.Builder.callback)");
            }
            if (store == null) {
                problems.add("missing: checkpoint store (Consumer.Builder.checkpointStore)");
            }
            if (name == null || name.isBlank()) {
                problems.add("missing: name (Consumer.Builder.name)");
            }
            ConsumerConfig config = null;
            try {
                config = ConsumerConfig.of(settings, policies);
            } catch (ConfigException e) {
                problems.addAll(e.problems());
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
            return create(name, config, callback, store);
        }

        private <T> Builder put(ConfigKey<T> key, T value) {
            settings.put(key.path(), key.kind().format(value));
            return this;
        }
    }
}
