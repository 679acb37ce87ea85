package io.changegrid.bench.stage1;

import io.changegrid.bench.harness.ProgressLine;
import io.changegrid.bench.load.BenchTables;
import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.gridkit.server.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The source of a stage-1 run with {@code --source-type postgresql}: a private PostgreSQL
 * (grid-kit, {@code wal_level=logical}) with the load written into schema {@value #SCHEMA} of
 * database {@value #DATABASE} while nothing replicates, a publication of its tables, and a slot
 * created before the load ({@value #START_SLOT}) that is never read: every reader gets a copy of it
 * ({@code pg_copy_logical_replication_slot}), so each starts at the load's first transaction with
 * the WAL kept for it, and a run can be repeated over the same WAL.
 *
 * <p>Stage 1 and the end-to-end run ({@code e2e --source-type postgresql}) both load this way.
 *
 * <p>Threading: one harness thread uses it.
 */
public final class PostgresLoad implements AutoCloseable {

    static final String DATABASE = "bench";

    /** The schema the load writes: what relays capture, and a consumer's "database". */
    public static final String SCHEMA = "bench";

    static final String PUBLICATION = "changegrid_bench";
    private static final String START_SLOT = "bench_start";
    private static final Duration SLOT_RELEASE = Duration.ofSeconds(30);

    /**
     * Not what is measured, so the server loads fast and stays quiet while readers read: no
     * autovacuum after the load, checkpoints far apart.
     */
    private static final Map<String, String> SETTINGS =
            Map.of(
                    "autovacuum", "off",
                    "max_wal_size", "16GB",
                    "checkpoint_timeout", "1h",
                    "shared_buffers", "512MB");

    private final PostgresServer server;
    private final String from;
    private final String to;
    private final LoadResult load;
    private final BenchTables tables;

    private PostgresLoad(
            PostgresServer server, String from, String to, LoadResult load, BenchTables tables) {
        this.server = server;
        this.from = from;
        this.to = to;
        this.load = load;
        this.tables = tables;
    }

    /** Starts the server and writes the load; the server is stopped again if that fails. */
    static PostgresLoad write(LoadShape shape) throws Exception {
        return write(shape, Set.of(1));
    }

    /**
     * Starts the server and writes the load; the server is stopped again if that fails.
     *
     * @param partitionCounts the numbers of partitions by table the run will split into, so the
     *     table names split evenly (as {@code LoadedRange.write} does for MySQL)
     */
    public static PostgresLoad write(LoadShape shape, Set<Integer> partitionCounts)
            throws Exception {
        PostgresServer server = PostgresServer.start(SETTINGS);
        try {
            server.createDatabase(DATABASE);
            BenchTables balanced = BenchTables.balanced(SCHEMA, shape.tables(), partitionCounts);
            List<String> names = balanced.names();
            WorkloadTables tables = WorkloadTables.of(LoadDialect.POSTGRESQL, SCHEMA, names);
            LoadGenerator generator = new LoadGenerator(tables, shape);
            try (Connection connection = server.connect(DATABASE)) {
                generator.createTables(connection);
                List<String> qualified = new ArrayList<>();
                names.forEach(name -> qualified.add("\"" + SCHEMA + "\".\"" + name + "\""));
                server.execute(
                        DATABASE,
                        "CREATE PUBLICATION "
                                + PUBLICATION
                                + " FOR TABLE "
                                + String.join(", ", qualified),
                        "SELECT pg_create_logical_replication_slot('"
                                + START_SLOT
                                + "', 'pgoutput')");
                String from = single(connection, confirmedFlush(START_SLOT));
                System.err.printf(
                        Locale.ROOT,
                        "load: %,d row changes of ~%,d bytes, mix %s, transactions of %d, tables %s,"
                                + " into a private PostgreSQL (logical decoding) from %s%n",
                        shape.records(),
                        shape.recordSize(),
                        shape.mix(),
                        shape.transactionSize(),
                        names,
                        from);
                ProgressLine progress = new ProgressLine(System.err, "load", shape.records());
                LoadResult load = generator.run(connection, progress::report);
                progress.end();
                connection.setAutoCommit(true);
                String to = single(connection, "SELECT pg_current_wal_lsn()::text");
                long started = System.nanoTime();
                try (var statement = connection.createStatement()) {
                    statement.execute("CHECKPOINT"); // not while a reader is timed
                }
                System.err.printf(
                        Locale.ROOT,
                        "load: %,d row changes in %,d transactions, %.1f s (%,.0f rows/s), WAL %s to"
                                + " %s; checkpoint %.1f s%n",
                        load.events(),
                        load.transactions(),
                        load.seconds(),
                        load.eventsPerSecond(),
                        from,
                        to,
                        (System.nanoTime() - started) / 1e9);
                return new PostgresLoad(server, from, to, load, balanced);
            }
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /** A new slot for one reader, at the load's start. */
    public String copySlot(String name) throws SQLException {
        server.execute(
                DATABASE,
                "SELECT pg_copy_logical_replication_slot('" + START_SLOT + "', '" + name + "')");
        return name;
    }

    /**
     * Drops a reader's slot once its WAL sender has let it go.
     *
     * @throws IllegalStateException if the slot stays active for {@value #SLOT_RELEASE}
     */
    public void dropSlot(String name) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + SLOT_RELEASE.toNanos();
        while (walSenderPid(name).isPresent()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("slot still active: slot=" + name);
            }
            Thread.sleep(20); // the server ends the WAL sender on its own
        }
        server.execute(DATABASE, "SELECT pg_drop_replication_slot('" + name + "')");
    }

    /** The process id of the WAL sender reading {@code slot}, while one does. */
    OptionalLong walSenderPid(String slot) throws SQLException {
        try (Connection connection = server.connect(DATABASE);
                var statement =
                        connection.prepareStatement(
                                "SELECT active_pid FROM pg_replication_slots WHERE slot_name = ?"
                                        + " AND active")) {
            statement.setString(1, slot);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? OptionalLong.of(rows.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    private static String confirmedFlush(String slot) {
        return "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '"
                + slot
                + "'";
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    String host() {
        return server.host();
    }

    int port() {
        return server.port();
    }

    String user() {
        return server.user();
    }

    /** The LSN the load starts at: where every reader's slot starts. */
    public String from() {
        return from;
    }

    /** The end of WAL after the last commit of the load. */
    public String to() {
        return to;
    }

    public LoadResult load() {
        return load;
    }

    /** The load's tables in schema {@value #SCHEMA}. */
    public BenchTables tables() {
        return tables;
    }

    @Override
    public void close() {
        server.close();
    }
}
