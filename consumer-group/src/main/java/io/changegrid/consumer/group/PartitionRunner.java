package io.changegrid.consumer.group;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.ConsumerStatus;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.CheckpointingCallback;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.dispatch.DeliveryGate;
import io.changegrid.consumer.group.checkpoint.CheckpointFencedException;
import io.changegrid.consumer.group.checkpoint.ZooKeeperCheckpointStore;
import io.changegrid.consumer.group.metrics.ConsumerMeters;
import io.changegrid.protocol.SnapshotCursor;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link Consumer} of one owned partition: started once relays are known, restarted at its
 * checkpoint when a new relay of the source registers (so the partition can fail over to it), and
 * stopped when the partition is revoked: the batch in progress is finished and checkpointed, unless
 * the checkpoint store finds the partition fenced. Its dispatcher delivers only while the member's
 * ownership holds and no operator paused it ({@link DeliveryGate}). A checkpoint reset ({@link
 * #resetTo}) stops the consumer, saves the SCN through the partition's epoch-fenced store and
 * starts it again there.
 *
 * <p>Threading: the methods may be called from any thread; state changes hold the runner's lock,
 * waiting for the consumer to stop does not, so {@link #status} answers meanwhile.
 */
final class PartitionRunner {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final PartitionAssignment assignment;
    private final ZooKeeperCheckpointStore store;
    private final DeliveryGate owned;
    private final BooleanSupplier paused;
    private final DeliveryGate delivering;
    private final PartitionConfigs configs;
    private final PartitionCallbackFactory callbacks;
    private final MeterRegistry registry;
    private final String name;
    private Consumer consumer; // guarded by this
    private ConsumerCallback callback; // guarded by this
    private ConsumerMeters meters; // guarded by this
    private List<String> relays = List.of(); // guarded by this
    private long startScn = -1; // guarded by this
    private String startError; // guarded by this
    private boolean startFenced; // guarded by this
    private boolean stopped; // guarded by this

    PartitionRunner(
            PartitionAssignment assignment,
            ZooKeeperCheckpointStore store,
            DeliveryGate owned,
            BooleanSupplier paused,
            PartitionConfigs configs,
            PartitionCallbackFactory callbacks,
            MeterRegistry registry) {
        this.assignment = assignment;
        this.store = store;
        this.owned = owned;
        this.paused = paused;
        this.delivering = () -> owned.isOpen() && !paused.getAsBoolean();
        this.configs = configs;
        this.callbacks = callbacks;
        this.registry = registry;
        this.name = assignment.instance() + "-p" + assignment.partition();
    }

    PartitionAssignment assignment() {
        return assignment;
    }

    /**
     * Starts the partition's consumer on {@code relays} (configured ones when empty and some are
     * configured); with none known yet it waits for {@link #relaysChanged}.
     */
    void start(List<String> relays) {
        synchronized (this) {
            if (stopped || consumer != null) {
                return;
            }
            if (relays.isEmpty() && configs.configuredRelays().isEmpty()) {
                LOG.info(
                        "partition waits for a relay of its source to register: partition={}, epoch={}",
                        assignment.partition(),
                        assignment.epoch());
                return;
            }
            startConsumer(relays, OptionalLong.empty(), false);
        }
    }

    /**
     * Moves the partition's checkpoint to {@code scn}: the consumer stops (its open batch rolled
     * back or checkpointed), {@code scn} is saved through the store the consumer uses (fenced by
     * this member's epoch, so a member that lost the partition writes nothing), and the consumer
     * starts again right after {@code scn}.
     *
     * @return true if saved; false if this runner stopped or the save failed (logged, and the
     *     partition shows FAILED or FENCED)
     */
    boolean resetTo(long scn) {
        return restart(OptionalLong.of(scn), false);
    }

    /**
     * Re-seeds the partition (docs/operations.md): stops its consumer, saves its checkpoint with
     * the snapshot cursor {@code start} through the partition's epoch-fenced store and starts it
     * again, so that it begins a snapshot of its subscription at its checkpoint. A callback that
     * keeps a copy empties each table where its copy begins ({@code onSnapshotStart}).
     *
     * @return false if the partition is stopped or waits for a relay (the request stays asked)
     */
    boolean reseed() {
        return restart(OptionalLong.empty(), true);
    }

    private boolean restart(OptionalLong reset, boolean reseed) {
        Consumer previous;
        synchronized (this) {
            if (stopped
                    || (consumer == null
                            && relays.isEmpty()
                            && configs.configuredRelays().isEmpty())) {
                return false; // waiting for a relay: the reset stays asked for until it runs
            }
            previous = consumer;
            if (previous != null) {
                previous.stop();
            }
        }
        if (previous != null) {
            awaitStopped(previous);
        }
        synchronized (this) {
            if (stopped || consumer != previous) {
                return false;
            }
            closeCallback();
            consumer = null;
            startError = null;
            startConsumer(relays, reset, reseed);
            return startError == null;
        }
    }

    /**
     * The source's registered relays changed: a waiting partition starts; a running one restarts at
     * its checkpoint if a relay it does not know appeared. Relays that left are not a reason: the
     * consumer already fails over away from a relay that stops answering.
     */
    void relaysChanged(List<String> newRelays) {
        Consumer previous;
        synchronized (this) {
            if (stopped || newRelays.isEmpty()) {
                return;
            }
            if (consumer == null) {
                if (startError == null) {
                    startConsumer(newRelays, OptionalLong.empty(), false);
                }
                return;
            }
            if (new HashSet<>(relays).containsAll(newRelays)
                    || consumer.state() != ConsumerState.RUNNING) {
                return;
            }
            previous = consumer;
            previous.stop();
        }
        awaitStopped(previous);
        synchronized (this) {
            if (stopped || consumer != previous) {
                return;
            }
            closeCallback();
            consumer = null;
            LOG.info(
                    "partition restarts at its checkpoint with the relays now registered: partition={},"
                            + " relays={}",
                    assignment.partition(),
                    newRelays);
            startConsumer(newRelays, OptionalLong.empty(), false);
        }
    }

    /** Asks the partition's consumer to stop; returns at once (see {@link #awaitStopped()}). */
    void requestStop() {
        synchronized (this) {
            stopped = true;
            if (consumer != null) {
                consumer.stop();
            }
        }
    }

    /** Waits until the consumer stopped (at most {@link #STOP_TIMEOUT}) and closes the callback. */
    void awaitStopped() {
        Consumer running;
        synchronized (this) {
            running = consumer;
        }
        if (running != null) {
            awaitStopped(running);
        }
        synchronized (this) {
            closeCallback();
        }
    }

    /** A snapshot of the partition. */
    synchronized PartitionStatus status() {
        if (consumer == null) {
            PartitionState state =
                    startError == null
                            ? PartitionState.WAITING_FOR_RELAYS
                            : startFenced ? PartitionState.FENCED : PartitionState.FAILED;
            return new PartitionStatus(
                    assignment.partition(),
                    assignment.epoch(),
                    state,
                    null,
                    startScn,
                    startScn,
                    null,
                    startScn,
                    -1,
                    0,
                    0,
                    startError,
                    null,
                    null);
        }
        ConsumerStatus now = consumer.status();
        Optional<ConsumerException> failure = consumer.failure();
        PartitionState state =
                failure.isPresent()
                        ? isFenced(failure.get()) ? PartitionState.FENCED : PartitionState.FAILED
                        : !owned.isOpen()
                                ? PartitionState.SUSPENDED
                                : paused.getAsBoolean()
                                        ? PartitionState.PAUSED
                                        : PartitionState.RUNNING;
        return new PartitionStatus(
                assignment.partition(),
                assignment.epoch(),
                state,
                now.relay(),
                startScn,
                now.checkpointScn(),
                now.timeline(),
                now.pulledScn(),
                now.lagMillis(),
                now.eventsDelivered(),
                now.transactionsDelivered(),
                failure.map(Throwable::getMessage).orElse(null),
                callback instanceof ApplyingCallback applier ? applier.applierStatus() : null,
                now.snapshot());
    }

    private void startConsumer(List<String> newRelays, OptionalLong reset, boolean reseed) {
        relays = newRelays.isEmpty() ? List.of() : List.copyOf(newRelays);
        try {
            callback = callbacks.create(assignment);
            CheckpointStore checkpoint =
                    callback instanceof CheckpointingCallback own
                            ? new CallbackCheckpointStore(own.checkpointStore(), store)
                            : store;
            if (reset.isPresent()) {
                checkpoint.load(); // fences: a member that lost the partition stops here
                checkpoint.save(reset.getAsLong());
                LOG.info(
                        "partition checkpoint reset: partition={}, epoch={}, scn={}",
                        assignment.partition(),
                        assignment.epoch(),
                        reset.getAsLong());
            }
            if (reseed) {
                checkpoint.load(); // fences, as a reset does
                long scn = checkpoint.loadCheckpoint().map(Checkpoint::scn).orElse(-1L);
                checkpoint.save(new Checkpoint(scn, SnapshotCursor.START));
                LOG.info(
                        "partition re-seed: a snapshot begins at the checkpoint: partition={},"
                                + " epoch={}, scn={}",
                        assignment.partition(),
                        assignment.epoch(),
                        scn);
            }
            Consumer created =
                    Consumer.create(
                            name,
                            configs.forPartition(assignment.partition(), relays),
                            callback,
                            checkpoint,
                            delivering);
            created.start();
            consumer = created;
            meters =
                    ConsumerMeters.register(
                            registry,
                            assignment.group(),
                            assignment.partition(),
                            created,
                            callback);
            startScn = created.status().checkpointScn();
            LOG.info(
                    "partition running: partition={}, epoch={}, checkpoint={}, relays={}",
                    assignment.partition(),
                    assignment.epoch(),
                    startScn,
                    relays.isEmpty() ? configs.configuredRelays() : relays);
        } catch (Exception e) {
            startError = e.getMessage();
            startFenced = e instanceof CheckpointFencedException;
            LOG.error(
                    "partition not started: partition={}, epoch={}, error={}",
                    assignment.partition(),
                    assignment.epoch(),
                    e.toString());
            closeCallback();
        }
    }

    private void awaitStopped(Consumer running) {
        try {
            if (!running.awaitTermination(STOP_TIMEOUT)) {
                LOG.warn(
                        "partition's consumer did not stop in time, leaving it: partition={}, timeout={}",
                        assignment.partition(),
                        STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.failure()
                .filter(PartitionRunner::isFenced)
                .ifPresent(
                        fenced ->
                                LOG.warn(
                                        "partition was fenced, nothing committed after losing it:"
                                                + " partition={}, epoch={}, error={}",
                                        assignment.partition(),
                                        assignment.epoch(),
                                        fenced.getMessage()));
    }

    private void closeCallback() {
        if (meters != null) {
            meters.close(); // the consumer they read is gone
            meters = null;
        }
        if (callback instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn(
                        "partition's callback did not close cleanly: partition={}",
                        assignment.partition(),
                        e);
            }
        }
        callback = null;
    }

    private static boolean isFenced(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof CheckpointFencedException) {
                return true;
            }
        }
        return false;
    }
}
