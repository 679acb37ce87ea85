package io.changegrid.bench.snapshot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.SourceOptions;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.load.BenchTables;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayOptions;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The snapshot benchmark (docs/bootstrap.md): {@code --rows} whitepaper-shaped rows (the bench's
 * tables and row generator, inserts only) are loaded into the source with nothing replicating; then
 * a relay process starts at the binlog's end, and per target a consumer in this JVM starts with
 * {@code start: snapshot} while a paced live load ({@code --live-rate} transactions a second, the
 * bench's 70/20/10 mix over the same rows) runs. Measured: the snapshot's rows/s, and the live
 * load's events/s, committed at the source and delivered to the consumer, while the snapshot runs
 * and for {@code --after-seconds} after it completed (live stream only). At the end the live load
 * stops, the consumer catches up, and a PostgreSQL target must hold as many rows per table as the
 * source.
 *
 * <pre>
 * bin/bench snapshot --rows 1000000 --targets counting,postgresql --chunk-size 1024 --live-rate 200
 * </pre>
 */
@Command(
        name = "snapshot",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "Snapshot rows/s into a counting consumer or the PostgreSQL applier, beside a live"
                        + " load's events/s during and after it.")
public final class SnapshotCommand implements Callable<Integer> {

    @Option(
            names = "--rows",
            description =
                    "Rows the tables hold before the relay starts (the snapshot's size)."
                            + " Default: ${DEFAULT-VALUE}.")
    long rows = 200_000;

    @Option(
            names = "--chunk-size",
            description =
                    "The relay's snapshot.chunkSize: rows per chunk. Default: ${DEFAULT-VALUE}.")
    int chunkSize = 1024;

    @Option(
            names = "--targets",
            split = ",",
            description =
                    "counting (a counting callback), postgresql (the JDBC applier into a fresh"
                            + " database), or both, in order. Default: counting,postgresql.")
    List<String> targets = List.of("counting", "postgresql");

    @Option(
            names = "--live-rate",
            description =
                    "Live transactions per second during and after the snapshot."
                            + " Default: ${DEFAULT-VALUE}.")
    int liveRate = 200;

    @Option(
            names = "--live-transaction-size",
            description = "Row changes per live transaction. Default: ${DEFAULT-VALUE}.")
    int liveTransactionSize = 10;

    @Option(
            names = "--after-seconds",
            description =
                    "How long the live load is measured after the snapshot completed, live stream"
                            + " only. Default: ${DEFAULT-VALUE}.")
    int afterSeconds = 10;

    @Option(
            names = "--lanes",
            description = "The PostgreSQL applier's lanes. Default: ${DEFAULT-VALUE}.")
    int lanes = 1;

    @Option(
            names = "--record-size",
            description = "Bytes of values per row, about. Default: ${DEFAULT-VALUE}.")
    int recordSize = 1_100;

    @Option(names = "--tables", description = "Tables. Default: ${DEFAULT-VALUE}.")
    int tables = 3;

    @Option(names = "--seed", description = "Seed of the random data. Default: ${DEFAULT-VALUE}.")
    long seed = 42;

    @Mixin RelayOptions relayOptions = new RelayOptions();

    @Mixin SourceOptions sourceOptions = new SourceOptions();

    @Option(
            names = "--results",
            description = "File the JSON result lines are appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/snapshot.jsonl");

    /** Seed rows per source transaction: few round trips while loading. */
    private static final int SEED_TRANSACTION_SIZE = 100;

    @Override
    public Integer call() throws Exception {
        OptionProblems problems = new OptionProblems();
        problems.check(rows >= 1, "--rows", "must be at least 1", rows);
        problems.check(
                chunkSize >= 1 && chunkSize <= 1_000_000,
                "--chunk-size",
                "must be 1..1000000",
                chunkSize);
        problems.check(!targets.isEmpty(), "--targets", "must name a target", targets);
        for (String target : targets) {
            problems.check(
                    target.equals("counting") || target.equals("postgresql"),
                    "--targets",
                    "expected counting or postgresql",
                    target);
        }
        problems.check(
                liveRate >= 1 && liveRate <= 100_000, "--live-rate", "must be 1..100000", liveRate);
        problems.check(
                liveTransactionSize >= 1 && liveTransactionSize <= 10_000,
                "--live-transaction-size",
                "must be 1..10000",
                liveTransactionSize);
        problems.check(afterSeconds >= 1, "--after-seconds", "must be at least 1", afterSeconds);
        problems.check(lanes >= 1 && lanes <= 64, "--lanes", "must be 1..64", lanes);
        problems.check(
                recordSize >= LoadShape.MIN_RECORD_SIZE && recordSize <= LoadShape.MAX_RECORD_SIZE,
                "--record-size",
                "must be " + LoadShape.MIN_RECORD_SIZE + ".." + LoadShape.MAX_RECORD_SIZE,
                recordSize);
        problems.check(tables >= 1 && tables <= 1000, "--tables", "must be 1..1000", tables);
        relayOptions.check(problems);
        problems.throwIfAny();

        LoadShape seedShape =
                new LoadShape(
                        rows,
                        recordSize,
                        tables,
                        new OperationMix(100, 0, 0),
                        SEED_TRANSACTION_SIZE,
                        seed);
        // The live load's binlog is small beside the seed's: a minute of it, as room to spare.
        LoadShape liveMinute =
                new LoadShape(
                        (long) liveRate * liveTransactionSize * 60,
                        recordSize,
                        tables,
                        OperationMix.DEFAULT,
                        liveTransactionSize,
                        seed + 1);
        boolean allMatch = true;
        try (WorkDirectory work = WorkDirectory.create("snapshot");
                BenchSource source =
                        BenchSource.open(
                                sourceOptions,
                                seedShape.dataBytes(),
                                seedShape.frameBytes() + 10 * liveMinute.frameBytes());
                Connection load = source.connect()) {
            BenchTables benchTables = BenchTables.balanced(source.database(), tables, Set.of(1));
            LoadGenerator seeding = new LoadGenerator(benchTables.workload(), seedShape);
            seeding.createTables(load);
            LoadResult seeded = seeding.run(load, done -> {});
            System.out.printf(
                    Locale.ROOT,
                    "source loaded: %,d rows in %d tables, %.1f s (%,.0f rows/s), nothing"
                            + " replicating%n",
                    seeded.inserts(),
                    tables,
                    seeded.seconds(),
                    seeded.eventsPerSecond());
            source.settle();
            RelayPlan plan = withChunkSize(relayOptions.plan(1, liveMinute, 1, List.of()));
            try (RelayFleet relay =
                    RelayFleet.start(
                            source, source.masterPosition(), plan, work.newPart("relay"))) {
                relay.awaitListening();
                int run = 0;
                for (String target : targets) {
                    SnapshotRun.Options options =
                            new SnapshotRun.Options(
                                    target,
                                    lanes,
                                    liveRate,
                                    liveTransactionSize,
                                    recordSize,
                                    afterSeconds,
                                    seed + 1 + run++);
                    SnapshotRun.Result result =
                            SnapshotRun.measure(source, relay, benchTables, options);
                    allMatch &= result.countsMatch();
                    report(result, source);
                }
            }
            work.succeeded();
        }
        return allMatch ? 0 : 1;
    }

    private RelayPlan withChunkSize(RelayPlan plan) {
        List<String> settings = new ArrayList<>(plan.settings());
        settings.add("snapshot.chunkSize=" + chunkSize);
        return new RelayPlan(
                plan.relays(),
                plan.partitioning(),
                plan.policies(),
                plan.heap(),
                plan.bufferBytes(),
                plan.storage(),
                plan.javaOptions(),
                plan.tls(),
                settings);
    }

    private void report(SnapshotRun.Result result, BenchSource source) throws Exception {
        ObjectNode line = ResultFile.newLine("snapshot");
        line.put("configuration", "snapshot into " + result.target());
        line.put("source", source.describe());
        line.put("target", result.target());
        line.put("rows", rows);
        line.put("recordSize", recordSize);
        line.put("tables", tables);
        line.put("chunkSize", chunkSize);
        if (result.target().equals("postgresql")) {
            line.put("lanes", lanes);
        }
        line.put("liveRate", liveRate);
        line.put("liveTransactionSize", liveTransactionSize);
        result.put(line);
        System.out.printf(
                Locale.ROOT,
                "%nSnapshot into %s: %,d rows in %.2f s, %,.0f rows/s (chunk %d); live load"
                        + " %,.0f events/s committed, %,.0f delivered during it; %,.0f and %,.0f in"
                        + " the %d s after%s%n",
                result.target(),
                result.snapshotRows(),
                result.seconds(),
                result.rowsPerSec(),
                chunkSize,
                result.during().committedPerSec(),
                result.during().deliveredPerSec(),
                result.after().committedPerSec(),
                result.after().deliveredPerSec(),
                afterSeconds,
                result.countsMatch() ? "" : "; TARGET DIFFERS FROM SOURCE");
        ResultFile.append(results, line);
    }
}
