package io.changegrid.fetchers.mysql;

import io.changegrid.gridkit.server.SourceDatabase;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/** A fetcher running on its own thread against a private server, as a relay runs one. */
final class RunningFetcher implements AutoCloseable {

    final BinlogFetcher fetcher;
    final CollectingSink sink;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private RunningFetcher(BinlogFetcher fetcher, CollectingSink sink) {
        this.fetcher = fetcher;
        this.sink = sink;
        this.thread = new Thread(this::run, "test-fetcher");
    }

    static BinlogFetcherConfig config(
            SourceDatabase server,
            TableFilter capture,
            StartPosition start,
            int maxTransactionBytes) {
        return new BinlogFetcherConfig(
                server.host(),
                server.port(),
                server.user(),
                server.password(),
                9_001,
                1,
                capture,
                CapturePlan.everything(),
                start,
                Duration.ofMillis(200),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                maxTransactionBytes);
    }

    /**
     * Whether the fetchers of these tests run with the fetch pipeline: on unless the environment
     * says {@code CHANGEGRID_FETCH_PIPELINE=false}, so that the whole suite runs both ways.
     */
    static boolean pipeline() {
        return !"false".equalsIgnoreCase(System.getenv("CHANGEGRID_FETCH_PIPELINE"));
    }

    /** Starts a fetcher with {@code config}, the fetch pipeline as {@link #pipeline()} says. */
    static RunningFetcher start(BinlogFetcherConfig config, Path state, String resume)
            throws Exception {
        return startAsGiven(config.withPipeline(pipeline()), state, resume);
    }

    /** Starts a fetcher with {@code config} as it is, the fetch pipeline included. */
    static RunningFetcher startAsGiven(BinlogFetcherConfig config, Path state, String resume)
            throws Exception {
        CollectingSink sink = new CollectingSink();
        BinlogFetcher fetcher = BinlogFetcher.open(config, state, resume, sink);
        sink.decodeWith(fetcher.sourceSchemas());
        RunningFetcher running = new RunningFetcher(fetcher, sink);
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

    Throwable failure() {
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
