package io.changegrid.relay;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.fetchers.FetchPosition;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.relay.buffer.BufferRecovery;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.SegmentFiles;
import io.changegrid.relay.buffer.SegmentPositions;
import io.changegrid.relay.cluster.RegistrationGuard;
import io.changegrid.relay.cluster.RelayRegistrar;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.http.RelayHealth;
import io.changegrid.relay.http.RelayHttpServer;
import io.changegrid.relay.http.RelayStatus;
import io.changegrid.relay.process.FatalErrors;
import io.changegrid.relay.publish.Publisher;
import io.changegrid.relay.security.AccessControl;
import io.changegrid.relay.security.RelayExposure;
import io.changegrid.relay.snapshot.ChunkSource;
import io.changegrid.relay.snapshot.SnapshotService;
import io.changegrid.relay.snapshot.SnapshotSettings;
import io.changegrid.relay.state.CorruptPositionFileException;
import io.changegrid.relay.state.PositionStore;
import io.changegrid.relay.stream.FetcherStopped;
import io.changegrid.relay.stream.StreamHandler;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running relay: a fetcher on its own thread publishing whole transactions into the off-heap
 * event buffer, the saved fetch position, and the HTTP API. The fetcher is the one {@code
 * source.type} names, found through the fetcher SPI ({@link FetcherProvider}); the relay reads none
 * of its settings and stores its resume position as the text it was given.
 *
 * <p>A source that cannot be reached at start (refused, unknown host, restarting) is waited for
 * ({@link SourceWait}); a source that refuses the relay fails the start.
 *
 * <p>A fatal fetch error (purged binlog, unreadable DDL, ...) stops the fetcher, not the relay: the
 * buffer keeps being served, {@code /v1/health} answers 503 with the reason, and the error is
 * logged once. An {@link Error} (out of memory, ...) ends the process instead ({@link
 * FatalErrors}).
 */
public final class Relay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    private final Config config;
    private final EventBuffer buffer;
    private final SegmentFiles segmentFiles;
    private final Publisher publisher;
    private final PositionStore positions;
    private final FetcherProvider source;
    private final Fetcher fetcher;
    private final RelayHttpServer http;
    private final SnapshotService snapshots;
    private final PrometheusMeterRegistry metrics;
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    private final Thread fetchThread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Throwable failure;
    private volatile boolean closing;
    private volatile RegistrationGuard registration;
    private final long startedNanos = System.nanoTime();
    private volatile boolean caughtUp;

    private Relay(RelayConfiguration configuration) throws Exception {
        this.config = configuration.settings();
        this.source = RelaySettings.fetcher(config);
        this.metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.segmentFiles = RelayBuffer.segmentFiles(configuration, source);
        try {
            this.buffer = new EventBuffer(RelayBuffer.config(config, segmentFiles));
        } catch (RuntimeException e) {
            RelayBuffer.close(segmentFiles);
            throw e;
        }
        Path state = config.get(RelaySettings.STATE_DIRECTORY);
        try {
            this.positions = new PositionStore(state);
        } catch (RuntimeException e) {
            buffer.close();
            RelayBuffer.close(segmentFiles);
            throw e;
        }
        this.publisher =
                new Publisher(
                        buffer,
                        positions,
                        segmentFiles == null ? SegmentPositions.NONE : segmentFiles,
                        config.get(RelaySettings.STATE_SYNC_INTERVAL).toNanos(),
                        metrics);
        publisher.takeParts(config.get(RelaySettings.BUFFER_TRANSACTION_PARTS));
        // A restart recovers a persistent buffer and reads on after its last entry; else it
        // re-reads from just before the oldest segment its buffer held, so the new buffer holds
        // the same transactions with the same SCNs and lagging consumers lose nothing.
        Optional<PositionStore.SavedPosition> saved;
        BufferRecovery.Recovered recovered = null;
        int httpPort;
        try {
            // A corrupt file refuses the start here, before the fetcher would begin a new history.
            saved = positions.load();
            recovered = RelayBuffer.recover(segmentFiles, buffer, config, saved);
            String resumeAt =
                    recovered != null
                            ? recovered.resumePosition()
                            : saved.map(PositionStore.SavedPosition::replayPosition).orElse(null);
            // A source not reachable yet is waited for, serving health and status meanwhile.
            SourceWait wait = new SourceWait(config, source);
            FetcherContext context = fetcherContext(configuration, resumeAt);
            this.fetcher = wait.open(() -> source.open(context, publisher));
            httpPort = wait.port();
            // A policy naming a table or column the source lacks is an error now, not a no-op.
            List<String> problems =
                    configuration.plan().validate(fetcher.sourceSchemas().latestVersions());
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
        } catch (Exception e) {
            positions.close();
            buffer.close();
            RelayBuffer.close(segmentFiles);
            throw e;
        }
        if (recovered != null) {
            publisher.resume(recovered);
        } else {
            FetchPosition start = fetcher.position();
            long floor =
                    saved.map(PositionStore.SavedPosition::replayFloorScn).orElse(start.scn() - 1);
            buffer.startAfter(floor);
            publisher.start(floor, start.resumePosition());
        }
        RelayGauges.register(metrics, buffer, publisher, gcMetrics);
        ServingLimits limits = ServingLimits.from(config);
        this.snapshots = snapshotService(configuration, saved);
        this.http =
                new RelayHttpServer(
                        config.get(RelaySettings.HTTP_HOST),
                        httpPort,
                        this::status,
                        this::health,
                        metrics,
                        new StreamHandler(
                                buffer,
                                fetcher.publishedSchemas(),
                                config.get(RelaySettings.SOURCE_ID),
                                configuration.plan().schemaFingerprint(),
                                this::fetcherStopped,
                                limits,
                                snapshots,
                                publisher::sourceTimeMillis,
                                fetcher.timeline()),
                        fetcher.publishedSchemas(),
                        limits,
                        RelaySettings.HTTP_TLS.read(config),
                        AccessControl.from(config));
        RelayExposure.warnIfOpen(config);
        this.fetchThread = new Thread(this::fetch, "relay-fetcher");
    }

    /**
     * {@code relay recover-schema}: the fetcher's way past a schema change it could not follow,
     * from the relay's saved replay point ({@link FetcherProvider#recoverSchema}). The relay must
     * be stopped.
     *
     * @return what was found and done, for the operator
     * @throws CorruptPositionFileException if the replay point cannot be read
     */
    public static String recoverSchema(RelayConfiguration configuration) throws Exception {
        Config config = configuration.settings();
        Optional<PositionStore.SavedPosition> saved;
        try (PositionStore positions =
                new PositionStore(config.get(RelaySettings.STATE_DIRECTORY))) {
            saved = positions.load();
        }
        return RelaySettings.fetcher(config)
                .recoverSchema(
                        fetcherContext(
                                configuration,
                                saved.map(PositionStore.SavedPosition::replayPosition)
                                        .orElse(null)));
    }

    /**
     * Snapshots in the stream (docs/bootstrap.md): chunks read through the source's snapshot
     * reader, opened at the first snapshot request; a source without one refuses such requests
     * then.
     */
    private SnapshotService snapshotService(
            RelayConfiguration configuration, Optional<PositionStore.SavedPosition> saved) {
        FetcherContext context =
                fetcherContext(
                        configuration,
                        saved.map(PositionStore.SavedPosition::replayPosition).orElse(null));
        ChunkSource chunks =
                new ChunkSource(
                        () -> {
                            try {
                                return source.openSnapshotReader(context);
                            } catch (RuntimeException e) {
                                throw e;
                            } catch (Exception e) {
                                throw new IllegalStateException(
                                        "snapshot reader did not open: source="
                                                + source.describe(config),
                                        e);
                            }
                        },
                        fetcher,
                        new SnapshotSettings(
                                config.get(RelaySettings.SNAPSHOT_CHUNK_SIZE),
                                config.get(RelaySettings.SNAPSHOT_MIN_CHUNK_INTERVAL),
                                config.get(RelaySettings.SNAPSHOT_WATERMARK_WAIT),
                                config.get(RelaySettings.SNAPSHOT_MAX_REQUESTS)));
        return new SnapshotService(
                config.get(RelaySettings.SOURCE_ID),
                fetcher.sourceSchemas(),
                fetcher.publishedSchemas(),
                context.capture(),
                configuration.plan(),
                chunks);
    }

    /** What the fetcher is opened with: the relay's settings and its saved replay point. */
    private static FetcherContext fetcherContext(
            RelayConfiguration configuration, String resumePosition) {
        Config config = configuration.settings();
        return new FetcherContext(
                config,
                config.get(RelaySettings.SOURCE_ID),
                TableFilter.of(
                        config.get(RelaySettings.CAPTURE_INCLUDE),
                        config.get(RelaySettings.CAPTURE_EXCLUDE)),
                configuration.plan(),
                config.get(RelaySettings.STATE_DIRECTORY),
                maxTransactionBytes(config),
                resumePosition);
    }

    /** Starts a relay without policies: every captured table, unchanged. */
    public static Relay start(Config config) throws Exception {
        return start(RelayConfiguration.of(config));
    }

    /**
     * Starts a relay: fetcher thread and HTTP API.
     *
     * @throws ConfigException if a policy names a table or column the source does not have
     */
    public static Relay start(RelayConfiguration configuration) throws Exception {
        Relay relay = new Relay(configuration);
        Config config = configuration.settings();
        relay.http.start();
        relay.fetchThread.start();
        // Registered once it serves, so a consumer group never finds a relay that cannot answer;
        // withdrawn while it hears nothing from its source (RegistrationGuard).
        if (!config.get(RelaySettings.CLUSTER_ZOOKEEPER).isBlank()) {
            int port = relay.http.port();
            relay.registration =
                    RegistrationGuard.start(
                            () -> RelayRegistrar.forRelay(configuration, port),
                            relay.publisher::lastEntryNanos,
                            config.get(RelaySettings.CLUSTER_SILENCE_TIMEOUT));
        }
        if (relay.failure != null) {
            relay.withdraw(); // the fetcher failed before the registration was made
        }
        LOG.info(
                "relay started: http={}://{}:{}/v1/status, source={} {}, buffer={}",
                RelaySettings.HTTP_TLS.read(config).hasKey() ? "https" : "http",
                config.get(RelaySettings.HTTP_HOST),
                relay.http.port(),
                relay.source.type(),
                relay.source.describe(config),
                relay.buffer);
        return relay;
    }

    private void fetch() {
        try {
            fetcher.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            FatalErrors.halt("relay fetcher", e); // never half alive: see FatalErrors
        } catch (RuntimeException e) {
            failure = e;
            LOG.error(
                    "relay fetcher stopped on an error; the buffer is still served: {}",
                    e.getMessage(),
                    e);
            withdraw();
        } finally {
            try {
                publisher.sync();
            } catch (RuntimeException e) {
                LOG.error("replay point could not be forced to disk at fetcher stop", e);
            }
        }
    }

    /**
     * Removes the relay's registration once its fetcher has failed: consumer groups stop choosing a
     * relay that will never have more, while it still serves what it holds. Called by the fetcher
     * thread and by {@link #start} (whichever comes second finds the other's state).
     */
    private void withdraw() {
        RegistrationGuard current = registration;
        if (current != null) {
            current.withdrawForGood();
        }
    }

    /** Null while the fetcher runs (or is yet to start), else how it stopped. */
    private FetcherStopped fetcherStopped() {
        Throwable fatal = failure;
        if (fatal != null) {
            return new FetcherStopped("FAILED", fatal.getMessage());
        }
        Thread thread = fetchThread;
        return thread != null && thread.getState() == Thread.State.TERMINATED
                ? new FetcherStopped("STOPPED", null)
                : null;
    }

    /** The port of the HTTP API. */
    public int httpPort() {
        return http.port();
    }

    public EventBuffer buffer() {
        return buffer;
    }

    /** The relay's snapshot serving (docs/bootstrap.md); tests install a chunk hook through it. */
    public SnapshotService snapshots() {
        return snapshots;
    }

    /** Why the fetcher stopped, or null while it runs or after a clean stop. */
    public Throwable failure() {
        return failure;
    }

    public RelayHealth health() {
        Throwable fatal = failure;
        String state = fetchState();
        if (RelayHealth.CATCHING_UP.equals(state)) {
            return new RelayHealth(
                    state,
                    null,
                    fetcher.position().resumePosition(),
                    fetcher.lagScn(),
                    publisher.lagMillis());
        }
        return new RelayHealth(state, fatal == null ? null : fatal.getMessage());
    }

    public RelayStatus status() {
        Throwable fatal = failure;
        return new RelayStatus(
                config.get(RelaySettings.SOURCE_ID),
                source.describe(config),
                fetcher.timeline(),
                fetchState(),
                fatal == null ? null : fatal.getMessage(),
                fetcher.position().resumePosition(),
                publisher.lastScn(),
                publisher.lagMillis(),
                publisher.lagClock() == null ? null : publisher.lagClock().wireName(),
                publisher.receivedMillis(),
                fetcher.lagScn(),
                buffer.oldestScn(),
                buffer.newestScn(),
                buffer.highestEvictedScn(),
                buffer.bytesUsed(),
                buffer.capacity(),
                buffer.transactionsAppended(),
                buffer.transactionsEvicted(),
                snapshots.chunks().paused());
    }

    private String fetchState() {
        if (failure != null) {
            return "FAILED";
        }
        if (!fetchThread.isAlive()) {
            return "STOPPED";
        }
        return caughtUp() ? "RUNNING" : RelayHealth.CATCHING_UP;
    }

    /**
     * Whether the fetcher has read up to the source's end since the relay started ({@link
     * Fetcher#reachedEnd}); asked on every health or status request until it has, then never again.
     */
    private boolean caughtUp() {
        return caughtUp || caughtUpNow();
    }

    /** Asks the fetcher; one HTTP thread at a time, so the transition is logged once. */
    private synchronized boolean caughtUpNow() {
        if (caughtUp) {
            return true;
        }
        if (!fetcher.reachedEnd()) {
            return false;
        }
        caughtUp = true;
        LOG.info(
                "relay caught up with its source: position={}, after={}ms, published since start:"
                        + " {} transactions and heartbeats",
                fetcher.position(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos),
                (long) metrics.counter("changegrid.relay.published.transactions").count());
        return true;
    }

    /** Blocks until {@link #close()}. */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        if (registration != null) {
            registration.close(); // consumers stop choosing this relay before it stops answering
        }
        fetcher.stop();
        try {
            fetchThread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            http.close();
        } catch (Exception e) {
            LOG.warn("HTTP server did not stop cleanly", e);
        }
        snapshots.close();
        positions.close();
        buffer.close();
        RelayBuffer.close(segmentFiles);
        gcMetrics.close();
        metrics.close();
        LOG.info("relay stopped: position={}", fetcher.position());
        stopped.countDown(); // after the last line: the main thread may exit as soon as it sees
        // this
    }

    /**
     * The largest transaction this relay publishes whole: one buffer segment (a transaction never
     * straddles two), and no more than a quarter of the heap, where the fetcher stages a
     * transaction until its commit. A bigger one stops the fetcher with an error naming it: never
     * an out-of-memory, never a transaction split into pieces.
     */
    static int maxTransactionBytes(Config config) {
        long segment = config.get(RelaySettings.BUFFER_SEGMENT);
        return (int)
                Math.min(
                        segment,
                        Math.min(Integer.MAX_VALUE - 8L, Runtime.getRuntime().maxMemory() / 4));
    }
}
