package io.changegrid.bench.snapshot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.load.BenchTables;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.sink.SnapshotCountingCallback;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.PacedLoad;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One target's snapshot run: a live load starts, a consumer starts with {@code start: snapshot} and
 * is timed until its snapshot completes, then the live stream alone for a while; then the live load
 * stops, the consumer catches up with the relay, and the target's row counts are compared with the
 * source's.
 *
 * <p>Threading: the harness thread; the live load and the consumer run on threads of their own.
 */
final class SnapshotRun {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long LIMIT_NANOS = TimeUnit.HOURS.toNanos(1);
    private static final long LIVE_WARMUP_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** What one run measures and how. */
    record Options(
            String target,
            int lanes,
            int liveRate,
            int liveTransactionSize,
            int recordSize,
            int afterSeconds,
            long liveSeed) {}

    /** The live load over one window: row changes committed at the source and delivered. */
    record Live(long committed, long delivered, double seconds) {
        double committedPerSec() {
            return committed / seconds;
        }

        double deliveredPerSec() {
            return delivered / seconds;
        }
    }

    /**
     * @param snapshotRows rows the snapshot delivered (keys the live load touched meanwhile arrive
     *     live instead)
     * @param sourceRowsAtStart rows the tables held when the consumer started
     * @param seconds from the consumer's start to the snapshot's completion
     * @param relayCores cores the relay process kept busy while the snapshot ran
     * @param sourceCores cores the private MariaDB kept busy then (-1: a given server)
     * @param harnessCores cores this process (consumer, target callback, live load) kept busy
     * @param sourceRows rows per table at the source at the end, the live load stopped
     * @param targetRows the same in the target, once caught up (empty: the counting target)
     */
    record Result(
            String target,
            long snapshotRows,
            long sourceRowsAtStart,
            double seconds,
            Live during,
            Live after,
            double relayCores,
            double sourceCores,
            double harnessCores,
            List<Long> sourceRows,
            List<Long> targetRows,
            boolean complete) {

        double rowsPerSec() {
            return snapshotRows / seconds;
        }

        /** The snapshot completed, and a target that keeps rows holds the source's counts. */
        boolean countsMatch() {
            return complete && (targetRows.isEmpty() || targetRows.equals(sourceRows));
        }

        void put(ObjectNode line) {
            line.put("snapshotRows", snapshotRows);
            line.put("sourceRowsAtStart", sourceRowsAtStart);
            line.put("seconds", ResultFile.round(seconds, 3));
            line.put("rowsPerSec", Math.round(rowsPerSec()));
            line.put("liveCommittedPerSecDuring", Math.round(during.committedPerSec()));
            line.put("liveDeliveredPerSecDuring", Math.round(during.deliveredPerSec()));
            line.put("afterSeconds", ResultFile.round(after.seconds(), 3));
            line.put("liveCommittedPerSecAfter", Math.round(after.committedPerSec()));
            line.put("liveDeliveredPerSecAfter", Math.round(after.deliveredPerSec()));
            line.put("relayCpu", ResultFile.round(relayCores, 2));
            line.put("sourceCpu", ResultFile.round(sourceCores, 2));
            line.put("harnessCpu", ResultFile.round(harnessCores, 2));
            line.set("sourceRowsAtEnd", ResultFile.JSON.valueToTree(sourceRows));
            if (!targetRows.isEmpty()) {
                line.set("targetRowsAtEnd", ResultFile.JSON.valueToTree(targetRows));
            }
            line.put("countsMatch", countsMatch());
        }
    }

    private SnapshotRun() {}

    static Result measure(BenchSource source, RelayFleet relay, BenchTables tables, Options options)
            throws Exception {
        try (Connection liveConnection = source.connect();
                SnapshotTarget target = SnapshotTarget.open(options.target(), options.lanes())) {
            LoadShape liveShape =
                    new LoadShape(
                            (long) options.liveRate()
                                    * options.liveTransactionSize()
                                    * TimeUnit.NANOSECONDS.toSeconds(LIMIT_NANOS),
                            options.recordSize(),
                            tables.names().size(),
                            OperationMix.DEFAULT,
                            options.liveTransactionSize(),
                            options.liveSeed());
            LoadGenerator live =
                    new LoadGenerator(tables.workload(), liveShape).onExistingRows(liveConnection);
            SnapshotCountingCallback counted = new SnapshotCountingCallback(target.callback());
            Consumer consumer =
                    Consumer.builder()
                            .name("snapshot-bench")
                            .relays(relay.urls().get(0))
                            .set(ConsumerSettings.START.path(), "snapshot")
                            .callback(counted)
                            .checkpointStore(target.checkpointStore())
                            .build();
            try (PacedLoad load = live.startPaced("live", liveConnection, options.liveRate())) {
                // The live load steady before the snapshot starts; the relay publishes it.
                LockSupport.parkNanos(LIVE_WARMUP_NANOS);
                long sourceRowsAtStart = sum(rowCounts(source, tables));
                Cpu cpu0 = Cpu.now(source, relay);
                long committed0 = load.committedRows();
                long start = System.nanoTime();
                consumer.start();
                try {
                    awaitSnapshot(consumer, load, counted, start);
                    long committed1 = load.committedRows();
                    Cpu cpu1 = Cpu.now(source, relay);
                    long done = counted.completedNanos();
                    double seconds = (done - start) / 1e9;
                    Live during =
                            new Live(
                                    committed1 - committed0,
                                    counted.liveEventsAtCompletion(),
                                    seconds);
                    long delivered1 = counted.liveEvents();
                    long afterStart = System.nanoTime();
                    await(
                            () ->
                                    System.nanoTime() - afterStart
                                            >= TimeUnit.SECONDS.toNanos(options.afterSeconds()),
                            consumer,
                            load);
                    Live after =
                            new Live(
                                    load.committedRows() - committed1,
                                    counted.liveEvents() - delivered1,
                                    (System.nanoTime() - afterStart) / 1e9);
                    load.stop();
                    load.awaitDone(Duration.ofSeconds(30));
                    long endScn = relay.awaitCatchUp(source.masterPosition(), 0).lastScn();
                    await(() -> consumer.status().checkpointScn() >= endScn, consumer, null);
                    List<Long> sourceRows = rowCounts(source, tables);
                    List<Long> targetRows = target.rowCounts(tables.database(), tables.names());
                    return new Result(
                            options.target(),
                            counted.snapshotRows(),
                            sourceRowsAtStart,
                            seconds,
                            during,
                            after,
                            (cpu1.relay - cpu0.relay) / seconds,
                            cpu0.source < 0 ? -1 : (cpu1.source - cpu0.source) / seconds,
                            (cpu1.harness - cpu0.harness) / seconds,
                            sourceRows,
                            targetRows,
                            counted.snapshotComplete());
                } finally {
                    consumer.close();
                }
            }
        }
    }

    /** Waits for the snapshot's completion, printing its progress every few seconds. */
    private static void awaitSnapshot(
            Consumer consumer, PacedLoad load, SnapshotCountingCallback counted, long start) {
        long[] last = {start, 0, load.committedRows()};
        await(
                () -> {
                    long now = System.nanoTime();
                    if (now - last[0] >= PROGRESS_NANOS) {
                        double seconds = (now - last[0]) / 1e9;
                        long rows = counted.snapshotRows();
                        long committed = load.committedRows();
                        System.out.printf(
                                Locale.ROOT,
                                "  %5.0fs  snapshot %,11d rows %,9.0f/s   live %,7.0f/s committed%n",
                                (now - start) / 1e9,
                                rows,
                                (rows - last[1]) / seconds,
                                (committed - last[2]) / seconds);
                        last[0] = now;
                        last[1] = rows;
                        last[2] = committed;
                    }
                    return counted.snapshotComplete();
                },
                consumer,
                load);
    }

    /**
     * Polls {@code done} until true.
     *
     * @throws IllegalStateException if the consumer or the live load failed, or an hour passed
     */
    private static void await(BooleanSupplier done, Consumer consumer, PacedLoad load) {
        long deadline = System.nanoTime() + LIMIT_NANOS;
        while (!done.getAsBoolean()) {
            if (consumer.state() == ConsumerState.FAILED) {
                throw new IllegalStateException(
                        "consumer failed: " + consumer.failure().orElseThrow().getMessage(),
                        consumer.failure().orElseThrow());
            }
            if (load != null && load.failure().isPresent()) {
                throw new IllegalStateException("live load failed", load.failure().get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "snapshot run not done within an hour: consumer=" + consumer.status());
            }
            LockSupport.parkNanos(POLL_NANOS); // polling progress, nothing to wait on
        }
    }

    private static List<Long> rowCounts(BenchSource source, BenchTables tables)
            throws SQLException {
        List<Long> counts = new ArrayList<>();
        try (Connection connection = source.connect();
                Statement statement = connection.createStatement()) {
            for (String table : tables.names()) {
                try (ResultSet rows =
                        statement.executeQuery(
                                "SELECT count(*) FROM `"
                                        + tables.database()
                                        + "`.`"
                                        + table
                                        + "`")) {
                    rows.next();
                    counts.add(rows.getLong(1));
                }
            }
        }
        return counts;
    }

    private static long sum(List<Long> counts) {
        return counts.stream().mapToLong(Long::longValue).sum();
    }

    /** CPU seconds used so far by the relay, the private source (-1: none) and this process. */
    private record Cpu(double relay, double source, double harness) {
        static Cpu now(BenchSource source, RelayFleet relay) {
            OptionalDouble server = source.cpuSeconds();
            return new Cpu(
                    relay.cpuSeconds(),
                    server.isPresent() ? server.getAsDouble() : -1,
                    ((com.sun.management.OperatingSystemMXBean)
                                            ManagementFactory.getOperatingSystemMXBean())
                                    .getProcessCpuTime()
                            / 1e9);
        }
    }
}
