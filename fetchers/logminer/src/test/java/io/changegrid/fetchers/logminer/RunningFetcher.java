package io.changegrid.fetchers.logminer;

import io.changegrid.fetchers.logminer.assembly.CollectingSink;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A LogMiner fetcher running on its own thread against the stand-in, collecting what it hands over.
 */
final class RunningFetcher implements AutoCloseable {

    final LogMinerFetcher fetcher;
    final CollectingSink sink;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private RunningFetcher(LogMinerFetcher fetcher, CollectingSink sink) {
        this.fetcher = fetcher;
        this.sink = sink;
        this.thread = new Thread(this::run, "logminer-fetcher");
    }

    static LogMinerFetcherConfig config(
            LogMinerStandIn standIn, List<String> capture, String start) {
        return new LogMinerFetcherConfig(
                standIn.jdbcUrl(),
                standIn.user(),
                "",
                start,
                LogMinerSettings.STAND_IN,
                500,
                Duration.ofMillis(20),
                500,
                Duration.ofMillis(200),
                Duration.ofSeconds(1),
                7,
                TableFilter.of(capture, List.of()),
                CapturePlan.everything(),
                64 << 20);
    }

    static RunningFetcher start(LogMinerFetcherConfig config, String resume, CollectingSink sink)
            throws Exception {
        LogMinerFetcher fetcher = LogMinerFetcher.open(config, resume, sink);
        sink.decodeWith(fetcher.publishedSchemas());
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

    /** What stopped the fetcher, if anything did. */
    Throwable failure() {
        return failure.get();
    }

    boolean isRunning() {
        return thread.isAlive();
    }

    @Override
    public void close() {
        fetcher.stop();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test is being torn down; keep the flag
        }
    }
}
