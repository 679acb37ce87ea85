package io.changegrid.fetchers.postgresql;

import io.changegrid.gridkit.server.PostgresServer;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/** A PostgreSQL fetcher running on its own thread against a private server, as a relay runs one. */
final class PgRunningFetcher implements AutoCloseable {

    final PgOutputFetcher fetcher;
    final CollectingSink sink;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private PgRunningFetcher(PgOutputFetcher fetcher, CollectingSink sink) {
        this.fetcher = fetcher;
        this.sink = sink;
        this.thread = new Thread(this::run, "test-pg-fetcher");
    }

    static PostgresFetcherConfig config(
            PostgresServer server, String database, String user, String slot) {
        return new PostgresFetcherConfig(
                server.host(),
                server.port(),
                database,
                user,
                "",
                slot,
                "changegrid",
                true,
                new StartPosition.Current(),
                Duration.ofMillis(200),
                Duration.ofSeconds(1),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                1,
                TableFilter.of(List.of("shop.*"), List.of()),
                CapturePlan.everything(),
                64 << 20);
    }

    static PgRunningFetcher start(PostgresFetcherConfig config, String resume) throws Exception {
        return start(config, resume, () -> {});
    }

    /** Starts with {@code slotCreated} run between a new slot's creation and its snapshot read. */
    static PgRunningFetcher start(
            PostgresFetcherConfig config,
            String resume,
            PgOutputFetcher.SlotCreatedHook slotCreated)
            throws Exception {
        CollectingSink sink = new CollectingSink();
        // The schema history lives per slot, as a relay's lives in its state directory.
        java.nio.file.Path state =
                java.nio.file.Path.of(
                        "target", "pg-fetcher-state", config.database(), config.slot());
        java.nio.file.Files.createDirectories(state);
        PgOutputFetcher fetcher = PgOutputFetcher.open(config, state, resume, sink, slotCreated);
        sink.decodeWith(fetcher.sourceSchemas());
        PgRunningFetcher running = new PgRunningFetcher(fetcher, sink);
        running.thread.start();
        return running;
    }

    private void run() {
        try {
            fetcher.run();
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    /** Waits for the fetcher to stop on its own and returns why. */
    Throwable awaitFailure() {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(() -> failure.get() != null);
        return failure.get();
    }

    @Override
    public void close() {
        fetcher.stop();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
