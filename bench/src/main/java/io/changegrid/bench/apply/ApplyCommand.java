package io.changegrid.bench.apply;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresDatabase;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures the JDBC applier's apply rate: whitepaper-shaped rows are loaded into a private MariaDB
 * and published by a relay first; then, per run, a consumer in this JVM with the applier as its
 * callback and the target's checkpoint as its store applies all of it into a fresh target, exactly
 * once, and the run is timed from the consumer's start until the target's checkpoint (every lane's)
 * has the last transaction. Then the target table must equal the source's: same row count and the
 * same SHA-256 over every column of every row ({@link TableChecksum}), so updates are checked too.
 * MB/s is the events' real frame bytes per second ({@link EventBytes}).
 *
 * <pre>
 * bin/bench apply \
 *      --rows 300000 --targets postgres,mariadb --lanes 1,4
 * </pre>
 *
 * {@code --mode staging} measures PostgreSQL's staging-table path instead of statements.
 */
@Command(
        name = "apply",
        mixinStandardHelpOptions = true,
        description = "Apply rate of the JDBC applier into PostgreSQL and MariaDB.")
public final class ApplyCommand implements Callable<Integer> {

    @Option(names = "--rows", description = "Rows inserted at the source (default 300000).")
    private long rows = 300_000;

    @Option(names = "--txn-rows", description = "Row changes per source transaction (default 10).")
    private int rowsPerTransaction = 10;

    @Option(
            names = "--update-percent",
            description = "Source transactions that update earlier rows instead (default 0).")
    private int updatePercent;

    @Option(
            names = "--targets",
            split = ",",
            description = "postgres, mariadb or both (default postgres,mariadb).")
    private List<String> targets = List.of("postgres", "mariadb");

    @Option(names = "--lanes", split = ",", description = "Lane counts to run (default 1,4).")
    private List<Integer> lanes = List.of(1, 4);

    @Option(
            names = "--partitioner",
            description = "key, transaction, event or column:<name> (default key).")
    private String partitioner = "key";

    @Option(
            names = "--batch",
            description = "Source transactions per consumer batch (default 1000).")
    private int batch = 1000;

    @Option(
            names = "--max-rows",
            description = "Pending rows after which lanes commit inside a batch (default 20000).")
    private int maxRows = 20_000;

    @Option(
            names = "--warmups",
            description = "Unreported runs per target before the measured ones (default 1).")
    private int warmups = 1;

    @Option(
            names = "--mode",
            description =
                    "How lanes write: STATEMENT (JDBC batches) or STAGING (PostgreSQL: COPY into a"
                            + " staging table, then merge) (default STATEMENT).")
    private ApplyMode mode = ApplyMode.STATEMENT;

    @Option(
            names = "--buffer-mib",
            description =
                    "Consumer buffer capacity in MiB (default 256). While the buffer is full the"
                            + " consumer ends a batch after every transaction, so a stream larger"
                            + " than the buffer is applied in small commits once it fills.")
    private long bufferMib = 256;

    @Option(names = "--seed", description = "Random seed of the source data (default 42).")
    private long seed = 42;

    @Override
    public Integer call() throws Exception {
        System.out.printf(
                Locale.ROOT,
                "loading source: rows=%d, txnRows=%d, updatePercent=%d, mode=%s, bufferMiB=%d,"
                        + " cores=%d%n",
                rows,
                rowsPerTransaction,
                updatePercent,
                mode,
                bufferMib,
                Runtime.getRuntime().availableProcessors());
        long loadStart = System.nanoTime();
        try (ApplySource source = ApplySource.load(rows, rowsPerTransaction, updatePercent, seed)) {
            System.out.printf(
                    Locale.ROOT,
                    "source loaded and published: transactions=%d, changes=%d, seconds=%.1f,"
                            + " rows=%d, sha256=%s%n",
                    source.transactions(),
                    source.changes(),
                    (System.nanoTime() - loadStart) / 1e9,
                    source.sum().rows(),
                    source.sum().sha256());
            System.out.println(
                    "| target | lanes | partitioner | row changes | seconds | row changes/s |"
                            + " event MB/s | commits | insert fallbacks | bench JVM CPU % |"
                            + " target = source |");
            System.out.println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|");
            for (String target : targets) {
                String name = target.trim().toLowerCase(Locale.ROOT);
                for (int w = 0; w < warmups; w++) {
                    run(source, name, lanes.get(0), true); // JIT and target caches, not counted
                }
                for (int laneCount : lanes) {
                    run(source, name, laneCount, false);
                }
            }
        }
        return 0;
    }

    private void run(ApplySource source, String target, int laneCount, boolean warmup)
            throws Exception {
        switch (target) {
            case "postgres" -> {
                try (PostgresDatabase database = PostgresDatabase.create()) {
                    measure(
                            source,
                            target,
                            laneCount,
                            warmup,
                            database.jdbcUrl(),
                            database.user(),
                            database.password());
                }
            }
            case "mariadb" -> {
                // Sized as a target for bulk writes (the test kit's defaults are for small tests),
                // and durable at every commit like the PostgreSQL target.
                MariaDbConfig config =
                        MariaDbConfig.builder()
                                .extraOption("--innodb-buffer-pool-size=1G")
                                .extraOption("--innodb-log-file-size=1G")
                                .extraOption("--innodb-flush-log-at-trx-commit=1")
                                .build();
                try (MariaDbServer server = MariaDbServer.start(config)) {
                    measure(
                            source,
                            target,
                            laneCount,
                            warmup,
                            server.jdbcUrl(""),
                            server.rootUser(),
                            server.rootPassword());
                }
            }
            default -> throw new IllegalArgumentException("unknown target: value=" + target);
        }
    }

    private void measure(
            ApplySource source,
            String target,
            int laneCount,
            boolean warmup,
            String url,
            String user,
            String password)
            throws Exception {
        ApplierOptions options =
                ApplierOptions.builder(url)
                        .credentials(user, password == null || password.isEmpty() ? null : password)
                        .consumerGroup("bench")
                        .lanes(laneCount, LaneRouter.parse(partitioner))
                        .maxRows(maxRows)
                        .mode(mode)
                        .build();
        if (warmup) {
            // What the target server does per commit is part of what is measured: say it.
            System.out.println(
                    target + " target settings: " + settings(url, user, password, target));
        }
        var os =
                (com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean();
        try (JdbcApplier applier = JdbcApplier.open(options)) {
            EventBytes counted = new EventBytes(applier);
            Consumer consumer =
                    Consumer.builder()
                            .name("apply-bench")
                            .relays(source.relayUrl())
                            .bufferCapacity(bufferMib << 20)
                            .fetchMaxBytes(8L << 20)
                            .batching(batch, Duration.ZERO)
                            .callback(counted)
                            .checkpointStore(applier.checkpointStore())
                            .build();
            long cpuStart = os.getProcessCpuTime();
            long start = System.nanoTime();
            consumer.start();
            try {
                while (lowest(applier.laneCheckpoints()) < source.endScn()) {
                    if (consumer.state() == ConsumerState.FAILED) {
                        throw new IllegalStateException(
                                "consumer failed: " + consumer.failure().orElseThrow(),
                                consumer.failure().orElseThrow());
                    }
                    LockSupport.parkNanos(2_000_000);
                }
            } finally {
                consumer.close();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9 / seconds * 100;
            TableChecksum.Sum sum =
                    TableChecksum.of(url, user, password, target.equals("postgres"));
            if (!sum.equals(source.sum())) {
                throw new IllegalStateException(
                        "target differs from source: target="
                                + target
                                + ", rows="
                                + sum.rows()
                                + ", expected="
                                + source.sum().rows()
                                + ", sha256="
                                + sum.sha256()
                                + ", expected="
                                + source.sum().sha256());
            }
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %d | %s | %d | %.2f | %,.0f | %.1f | %d | %d | %.0f | sha256 %s… |%n",
                    (mode == ApplyMode.STAGING ? target + " staging" : target)
                            + (warmup ? " (warm-up)" : ""),
                    laneCount,
                    partitioner,
                    source.changes(),
                    seconds,
                    source.changes() / seconds,
                    counted.bytes() / seconds / 1e6,
                    applier.commits(),
                    applier.insertFallbacks(),
                    cpu,
                    sum.sha256().substring(0, 12));
        }
    }

    /** The target server settings that decide the cost of a commit and of a row write. */
    private static String settings(String url, String user, String password, String target)
            throws SQLException {
        String sql =
                target.equals("postgres")
                        ? "SELECT 'version=' || current_setting('server_version')"
                                + " || ', synchronous_commit=' || current_setting('synchronous_commit')"
                                + " || ', fsync=' || current_setting('fsync')"
                                + " || ', wal_level=' || current_setting('wal_level')"
                                + " || ', full_page_writes=' || current_setting('full_page_writes')"
                                + " || ', shared_buffers=' || current_setting('shared_buffers')"
                        : "SELECT CONCAT('version=', @@version, ', log_bin=', @@log_bin,"
                                + " ', binlog_format=', @@binlog_format,"
                                + " ', binlog_row_image=', @@binlog_row_image,"
                                + " ', sync_binlog=', @@sync_binlog,"
                                + " ', innodb_flush_log_at_trx_commit=',"
                                + " @@innodb_flush_log_at_trx_commit,"
                                + " ', innodb_buffer_pool_size=', @@innodb_buffer_pool_size)";
        try (Connection connection =
                        DriverManager.getConnection(url, user, password == null ? "" : password);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** The lowest lane's checkpoint; -1 while the applier has no lanes (reconnecting). */
    private static long lowest(long[] checkpoints) {
        if (checkpoints.length == 0) {
            return -1;
        }
        long lowest = Long.MAX_VALUE;
        for (long scn : checkpoints) {
            lowest = Math.min(lowest, scn);
        }
        return lowest;
    }
}
