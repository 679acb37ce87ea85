package io.changegrid.fetchers.logminer;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.fetchers.logminer.assembly.TimelineScn;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.logminer.LogMinerWorkload;
import io.changegrid.testkit.PostgresServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole fetcher's rate on the stand-in (JDBC reading of V$LOGMNR_CONTENTS through pgjdbc, CSF
 * joining, assembly, SQL_REDO parsing, typing, frame encoding), from a backlog of plain
 * transactions, printed as events/s. A figure, not a bound: the stand-in's PostgreSQL shares the
 * machine; the assertion only checks the backlog was read whole.
 */
class LogMinerThroughputIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final int TRANSACTIONS = 4_000;

    @Test
    void shouldReportEventsPerSecondWhenMiningBacklog() throws Exception {
        LogMinerStandIn standIn = LogMinerStandIn.create(POSTGRES.server(), "throughput");
        LogMinerWorkload.define(standIn);
        long start = standIn.currentScn() + 1;
        var workload = new LogMinerWorkload(42, start, LogMinerWorkload.Options.steady(8));
        int rows = workload.write(standIn, TRANSACTIONS, 500);
        long events =
                workload.committed().stream()
                        .mapToLong(LogMinerWorkload.Committed::rowChanges)
                        .sum();
        var base =
                RunningFetcher.config(
                        standIn, java.util.List.of("SHOP.ITEMS"), Long.toString(start));
        var config =
                new LogMinerFetcherConfig(
                        base.url(),
                        base.user(),
                        base.password(),
                        base.start(),
                        base.dialect(),
                        20_000,
                        base.pollInterval(),
                        2_000,
                        Duration.ofSeconds(10),
                        base.reconnectBackoffMax(),
                        base.sourceId(),
                        base.capture(),
                        base.plan(),
                        base.maxTransactionBytes());
        CollectingNothing sink = new CollectingNothing();
        long began = System.nanoTime();
        var fetcher = LogMinerFetcher.open(config, null, sink);
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                fetcher.run();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        });
        thread.start();
        long end = TimelineScn.of(workload.scn(), 0);
        Awaitility.await()
                .atMost(Duration.ofMinutes(5))
                .pollInterval(5, TimeUnit.MILLISECONDS)
                .until(() -> fetcher.position().scn() > end);
        double seconds = (System.nanoTime() - began) / 1e9;
        fetcher.stop();
        thread.join();
        System.out.printf(
                "LogMinerThroughputIT: transactions=%d, rows=%d, events=%d, seconds=%.2f, events/s=%.0f, rows/s=%.0f%n",
                sink.transactions,
                rows,
                sink.events,
                seconds,
                sink.events / seconds,
                rows / seconds);
        assertThat(sink.events).isEqualTo(events);
    }

    /** Counts what it is handed; decoding is the consumers' cost, not the fetcher's. */
    private static final class CollectingNothing implements io.changegrid.fetchers.TransactionSink {
        long events;
        long transactions;

        @Override
        public void accept(
                long scn,
                java.nio.ByteBuffer frames,
                int length,
                int count,
                long commitTimeMicros,
                String resumePosition) {
            if (count > 0) {
                events += count;
                transactions++;
            }
        }
    }
}
