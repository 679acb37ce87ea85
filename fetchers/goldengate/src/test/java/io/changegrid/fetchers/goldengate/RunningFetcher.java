package io.changegrid.fetchers.goldengate;

import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/** A GoldenGate fetcher running on its own thread over a directory, as a relay runs one. */
final class RunningFetcher implements AutoCloseable {

    final GoldenGateFetcher fetcher;
    final CollectingSink sink;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private RunningFetcher(GoldenGateFetcher fetcher, CollectingSink sink) {
        this.fetcher = fetcher;
        this.sink = sink;
        this.thread = new Thread(this::run, "test-goldengate-fetcher");
    }

    static GoldenGateFetcherConfig config(Path directory, List<String> tables, String txind) {
        return new GoldenGateFetcherConfig(
                directory,
                TrailFormat.JSON,
                ".json",
                ".json.tmp",
                txind,
                "TK-XID",
                "TK-CSN",
                null,
                tables,
                Duration.ofMillis(100),
                Duration.ofMillis(2),
                1,
                TableFilter.of(List.of("SHOP.*"), List.of()),
                CapturePlan.everything(),
                64 << 20);
    }

    static GoldenGateFetcherConfig withSchemaDirectory(GoldenGateFetcherConfig c, Path schemas) {
        return new GoldenGateFetcherConfig(
                c.directory(),
                c.format(),
                c.finalizedSuffix(),
                c.activeSuffix(),
                c.transactionIndicator(),
                c.xidToken(),
                c.csnToken(),
                schemas,
                c.tables(),
                c.heartbeatInterval(),
                c.pollInterval(),
                c.sourceId(),
                c.capture(),
                c.plan(),
                c.maxTransactionBytes());
    }

    static GoldenGateFetcherConfig xml(GoldenGateFetcherConfig c) {
        return new GoldenGateFetcherConfig(
                c.directory(),
                TrailFormat.XML,
                ".xml",
                ".xml.tmp",
                c.transactionIndicator(),
                c.xidToken(),
                c.csnToken(),
                c.schemaDirectory(),
                c.tables(),
                c.heartbeatInterval(),
                c.pollInterval(),
                c.sourceId(),
                c.capture(),
                c.plan(),
                c.maxTransactionBytes());
    }

    static RunningFetcher start(GoldenGateFetcherConfig config, String resume) throws Exception {
        CollectingSink sink = new CollectingSink();
        GoldenGateFetcher fetcher = GoldenGateFetcher.open(config, resume, sink);
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
                .pollInterval(5, TimeUnit.MILLISECONDS)
                .until(() -> failure.get() != null);
        return failure.get();
    }

    Throwable failure() {
        return failure.get();
    }

    @Override
    public void close() {
        stopAndJoin();
    }

    /** Stops the fetcher as a relay would and waits for its thread. */
    void stopAndJoin() {
        fetcher.stop();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
