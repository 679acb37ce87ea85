package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.events.ChangeEvent;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL source end to end: a relay with {@code source.type: postgresql} on a private
 * PostgreSQL, its binary and JSON streams, and the applier into a PostgreSQL target (another
 * database of the same private server) and a private MariaDB. Every type the fetcher carries
 * ({@link PgTypeMatrix}) is inserted, updated column by column (whole before images: REPLICA
 * IDENTITY FULL, TOASTed text left unchanged by later updates), re-keyed and deleted; after each
 * step both targets' tables have the source's checksum. What MariaDB cannot hold (NaN, infinity, BC
 * dates, a numeric beyond DECIMAL(65,30), a timestamptz outside TIMESTAMP's range) stops its
 * applier naming column and value. Concurrent sessions and a 20,000-row transaction arrive whole,
 * one transaction per SCN, in commit order.
 */
class PostgresSourcePipelineIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    private static final String SOURCE_DB = "src";
    private static final String TARGET_DB = "target";
    private static final String STREAM = "m_stream";
    private static final String TO_POSTGRES = "m_postgres";
    private static final String TO_MARIADB = "m_mariadb";
    private static final String BULK = "bulk";

    @TempDir static Path relayState;
    @TempDir Path work;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    /** The cases MariaDB refuses, each in a schema of its own. */
    private static List<PgTypeMatrix.Case> edges() {
        return PgTypeMatrix.CASES.stream().filter(c -> c.edge() != null).toList();
    }

    @BeforeAll
    static void createTablesThenStartRelay() throws Exception {
        POSTGRES.server().createDatabase(SOURCE_DB);
        POSTGRES.server().createDatabase(TARGET_DB);
        List<String> sql = new ArrayList<>();
        for (String schema : List.of(STREAM, TO_POSTGRES, TO_MARIADB)) {
            sql.addAll(PgTypeMatrix.create(schema));
        }
        for (PgTypeMatrix.Case c : edges()) {
            sql.addAll(PgTypeMatrix.create("r_" + c.name()));
        }
        sql.add("CREATE SCHEMA " + BULK);
        sql.add(
                "CREATE TABLE "
                        + BULK
                        + ".t (id bigint PRIMARY KEY, session int NOT NULL, txn int NOT NULL,"
                        + " n int NOT NULL, amount numeric(12,2), note text)");
        sql.add("ALTER TABLE " + BULK + ".t REPLICA IDENTITY FULL");
        POSTGRES.server().execute(SOURCE_DB, sql.toArray(String[]::new));
        relay = Pipeline.startPostgresRelay(POSTGRES.server(), SOURCE_DB, "pipeline", relayState);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void shouldGiveBothTargetsTheSourceChecksumAfterEveryStepOfEveryType() throws Exception {
        Consumer toPostgres = apply(Target.ofPostgres(POSTGRES.server(), TARGET_DB), TO_POSTGRES);
        Consumer toMariaDb = apply(Target.of(MARIADB_TARGET.server()), TO_MARIADB);
        List<ChangeEvent> binary = new CopyOnWriteArrayList<>();
        Consumer streamConsumer = collect(STREAM, binary);
        MatrixStream json = new MatrixStream(relay, STREAM);
        Map<Long, Object[]> images = new HashMap<>();

        List<String> names =
                List.of(
                        "insert",
                        "update each column",
                        "change every key",
                        "delete one row",
                        "delete every row");
        int stepCount = names.size();
        int expectedEvents = 0;
        for (int step = 0; step < stepCount; step++) {
            int events = 0;
            for (String schema : List.of(STREAM, TO_POSTGRES, TO_MARIADB)) {
                boolean edges = !schema.equals(TO_MARIADB);
                List<String> script = script(step, schema, edges);
                POSTGRES.server().execute(SOURCE_DB, script.toArray(String[]::new));
                if (schema.equals(STREAM)) {
                    events = rowChanges(step, edges);
                }
            }
            expectedEvents += events;
            int expected = expectedEvents;
            Pipeline.awaitUntil(
                    streamConsumer, () -> binary.size() >= expected, Duration.ofSeconds(60));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () -> {
                                json.read(binary);
                                return json.events().size() >= expected;
                            });
            assertThat(binary).as("step %s", names.get(step)).hasSize(expected);
            assertThat(json.events()).as("JSON stream, step %s", names.get(step)).isEqualTo(binary);
            chainImages(binary.subList(expected - events, expected), images);
            assertEqualEventually(toPostgres, true, names.get(step));
            assertEqualEventually(toMariaDb, false, names.get(step));
        }
        assertThat(images).isEmpty();
    }

    @Test
    void shouldStopTheMariaDbApplierNamingColumnAndValueWhenItCannotHoldAPostgresValue()
            throws Exception {
        Map<PgTypeMatrix.Case, Consumer> consumers = new LinkedHashMap<>();
        for (PgTypeMatrix.Case c : edges()) {
            String schema = "r_" + c.name();
            POSTGRES.server()
                    .execute(
                            SOURCE_DB,
                            "INSERT INTO "
                                    + schema
                                    + ".t (id, "
                                    + c.name()
                                    + ") VALUES (1, "
                                    + c.edge()
                                    + ")");
            consumers.put(c, apply(Target.of(MARIADB_TARGET.server()), schema));
        }
        Target target = Target.of(MARIADB_TARGET.server());
        for (var entry : consumers.entrySet()) {
            PgTypeMatrix.Case c = entry.getKey();
            Consumer consumer = entry.getValue();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.state() == ConsumerState.FAILED);
            assertThat(consumer.failure().orElseThrow())
                    .as("refusal of %s", c.edge())
                    .hasStackTraceContaining("table=" + target.table("r_" + c.name(), "t"))
                    .hasStackTraceContaining("key=[1]")
                    .hasStackTraceContaining("column=" + c.name() + ", value=");
            long rows;
            try {
                rows = target.count("SELECT count(*) FROM " + target.table("r_" + c.name(), "t"));
            } catch (SQLException e) {
                rows = 0; // the table may not be created before its first row is refused
            }
            assertThat(rows).as("rows written of %s", c.edge()).isZero();
        }
    }

    @Test
    void shouldDeliverWholeTransactionsInCommitOrderFromConcurrentSessionsAndALargeOne()
            throws Exception {
        long seed = System.nanoTime();
        Target toPostgres = Target.ofPostgres(POSTGRES.server(), TARGET_DB);
        Target toMariaDb = Target.of(MARIADB_TARGET.server());
        Consumer pg = apply(toPostgres, BULK);
        Consumer maria = apply(toMariaDb, BULK);
        List<ChangeEvent> binary = new CopyOnWriteArrayList<>();
        Consumer stream = collect(BULK, binary);
        int sessions = 4;
        int transactions = 40;
        int large = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(sessions + 1);
        List<Future<Integer>> written = new ArrayList<>();
        try {
            for (int s = 1; s <= sessions; s++) {
                int session = s;
                written.add(pool.submit(() -> session(session, transactions, seed + session)));
            }
            written.add(
                    pool.submit(
                            () -> {
                                POSTGRES.server()
                                        .execute(
                                                SOURCE_DB,
                                                "INSERT INTO "
                                                        + BULK
                                                        + ".t SELECT 9000000000 + g, 9, 0, "
                                                        + large
                                                        + ", g / 100.0, repeat('x', g % 300)"
                                                        + " FROM generate_series(1, "
                                                        + large
                                                        + ") g");
                                return large;
                            }));
            int total = 0;
            for (Future<Integer> f : written) {
                total += f.get();
            }
            int expected = total;
            Pipeline.awaitUntil(stream, () -> binary.size() >= expected, Duration.ofSeconds(120));
            assertThat(binary).as("seed=%d", seed).hasSize(expected);
        } finally {
            pool.shutdownNow();
        }
        // Every SCN holds exactly one source transaction, whole; SCNs rise in delivery order.
        Map<Long, List<ChangeEvent>> byScn = new LinkedHashMap<>();
        long previous = -1;
        for (ChangeEvent event : binary) {
            assertThat(event.scn()).as("seed=%d", seed).isGreaterThanOrEqualTo(previous);
            previous = event.scn();
            byScn.computeIfAbsent(event.scn(), k -> new ArrayList<>()).add(event);
        }
        int session = binarySchemaIndex(binary, "session");
        int txn = binarySchemaIndex(binary, "txn");
        int n = binarySchemaIndex(binary, "n");
        for (var entry : byScn.entrySet()) {
            Object[] first = entry.getValue().get(0).after();
            for (ChangeEvent event : entry.getValue()) {
                assertThat(List.of(event.after()[session], event.after()[txn]))
                        .as("transaction of scn=%d, seed=%d", entry.getKey(), seed)
                        .isEqualTo(List.of(first[session], first[txn]));
            }
            assertThat(entry.getValue())
                    .as("events of scn=%d, seed=%d", entry.getKey(), seed)
                    .hasSize(((Long) first[n]).intValue());
        }
        POSTGRES.server().execute(SOURCE_DB, "DELETE FROM " + BULK + ".t WHERE id % 7 = 0");
        List<TableContents.Spec> columns =
                List.of(
                        TableContents.Spec.of("id", Canon.TEXT),
                        TableContents.Spec.of("session", Canon.TEXT),
                        TableContents.Spec.of("txn", Canon.TEXT),
                        TableContents.Spec.of("n", Canon.TEXT),
                        TableContents.Spec.of("amount", Canon.TEXT),
                        TableContents.Spec.of("note", Canon.TEXT));
        String source;
        try (Connection connection = POSTGRES.server().connect(SOURCE_DB)) {
            source =
                    TableContents.checksum(
                            TableContents.rows(connection, BULK + ".t", columns, true));
        }
        for (var path : List.of(Map.entry(toPostgres, pg), Map.entry(toMariaDb, maria))) {
            Target target = path.getKey();
            String[] last = {""};
            Pipeline.awaitUntil(
                    path.getValue(),
                    () -> {
                        try (Connection connection = target.connect()) {
                            last[0] =
                                    TableContents.checksum(
                                            TableContents.rows(
                                                    connection,
                                                    target.table(BULK, "t"),
                                                    columns,
                                                    target.postgres()));
                            return last[0].equals(source);
                        } catch (SQLException e) {
                            return false;
                        }
                    },
                    Duration.ofSeconds(120));
            assertThat(last[0]).as("%s checksum", target.name()).isEqualTo(source);
        }
    }

    /** One session's transactions: 1..5 inserts and an update of an earlier row of its own. */
    private static int session(int session, int transactions, long seed) throws SQLException {
        Random random = new Random(seed);
        int events = 0;
        try (Connection connection = POSTGRES.server().connect(SOURCE_DB)) {
            connection.setAutoCommit(false);
            try (var statement = connection.createStatement()) {
                for (int t = 1; t <= transactions; t++) {
                    int inserts = 1 + random.nextInt(5);
                    int n = t > 1 ? inserts + 1 : inserts;
                    for (int j = 0; j < inserts; j++) {
                        long id = session * 1_000_000L + t * 10L + j;
                        statement.execute(
                                "INSERT INTO "
                                        + BULK
                                        + ".t VALUES ("
                                        + id
                                        + ", "
                                        + session
                                        + ", "
                                        + t
                                        + ", "
                                        + n
                                        + ", "
                                        + random.nextInt(100_000) / 100.0
                                        + ", 'session "
                                        + session
                                        + "')");
                    }
                    if (t > 1) {
                        long earlier = session * 1_000_000L + (1 + random.nextInt(t - 1)) * 10L;
                        statement.execute(
                                "UPDATE "
                                        + BULK
                                        + ".t SET amount = amount + 1, txn = "
                                        + t
                                        + ", n = "
                                        + n
                                        + " WHERE id = "
                                        + earlier);
                    }
                    connection.commit();
                    events += n;
                }
            }
        }
        return events;
    }

    private static int binarySchemaIndex(List<ChangeEvent> events, String column) {
        return events.get(0).schema().indexOf(column);
    }

    /** The statements of a step in one schema. */
    private static List<String> script(int step, String schema, boolean edges) {
        return switch (step) {
            case 0 -> PgTypeMatrix.inserts(schema, edges);
            case 1 -> PgTypeMatrix.updates(schema);
            case 2 -> List.of("UPDATE " + schema + ".t SET id = id + 100");
            case 3 -> List.of("DELETE FROM " + schema + ".t WHERE id = 101");
            default -> List.of("DELETE FROM " + schema + ".t");
        };
    }

    /** How many row changes a step makes in one schema. */
    private static int rowChanges(int step, boolean edges) {
        int rows = edges ? 3 : 2;
        return switch (step) {
            case 0, 2 -> rows;
            case 1 -> 2 * PgTypeMatrix.CASES.size();
            case 3 -> 1;
            default -> rows - 1;
        };
    }

    /** Each before image must be the image the previous event left; the after image is kept. */
    private static void chainImages(List<ChangeEvent> events, Map<Long, Object[]> images) {
        for (ChangeEvent event : events) {
            if (event.before() != null) {
                Object[] previous = images.remove(((Number) event.before()[0]).longValue());
                assertThat(previous).as("image before the change").isNotNull();
                assertThat(event.before()).containsExactly(previous);
            }
            if (event.after() != null) {
                images.put(((Number) event.after()[0]).longValue(), event.after());
            }
        }
    }

    /** The target's table equals the source's, compared by checksum, else names the rows. */
    private void assertEqualEventually(Consumer consumer, boolean postgres, String step)
            throws Exception {
        String schema = postgres ? TO_POSTGRES : TO_MARIADB;
        List<String> source;
        try (Connection connection = POSTGRES.server().connect(SOURCE_DB)) {
            source = PgTypeMatrix.postgres(connection, schema + ".t", !postgres);
        }
        assertThat(source.isEmpty())
                .as("source empty after %s", step)
                .isEqualTo(step.equals("delete every row"));
        Target target =
                postgres
                        ? Target.ofPostgres(POSTGRES.server(), TARGET_DB)
                        : Target.of(MARIADB_TARGET.server());
        List<List<String>> last = new ArrayList<>(List.of(List.of()));
        try {
            Pipeline.awaitUntil(
                    consumer,
                    () -> {
                        try (Connection connection = target.connect()) {
                            String table = target.table(schema, "t");
                            last.set(
                                    0,
                                    postgres
                                            ? PgTypeMatrix.postgres(connection, table, false)
                                            : PgTypeMatrix.mariaDb(connection, table));
                            return TableContents.checksum(last.get(0))
                                    .equals(TableContents.checksum(source));
                        } catch (SQLException e) {
                            return false; // the table may not exist yet
                        }
                    },
                    Duration.ofSeconds(60));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "target differs: target="
                            + target.name()
                            + ", step="
                            + step
                            + ", source="
                            + source
                            + ", target="
                            + last.get(0),
                    e);
        }
    }

    private Consumer collect(String schema, List<ChangeEvent> events) throws Exception {
        Consumer consumer =
                Pipeline.consume(
                        relay,
                        schema,
                        event -> {
                            if (event.operation().isRowChange()) {
                                events.add(event.toChangeEvent());
                            }
                            return CallbackResult.SUCCESS;
                        },
                        new FileCheckpointStore(work.resolve("checkpoint-" + schema)),
                        50);
        closing.add(consumer);
        return consumer;
    }

    private Consumer apply(Target target, String schema) throws Exception {
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(schema + "-" + target.name())
                                .build());
        closing.add(applier);
        Consumer consumer = Pipeline.consume(relay, schema, applier, applier.checkpointStore(), 50);
        closing.add(consumer);
        return consumer;
    }
}
