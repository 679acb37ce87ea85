package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix.TypeCase;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The all-types matrix ({@link MariaDbTypeMatrix}) end to end: through a real relay into the binary
 * consumer, the JSON stream, and every apply path (PostgreSQL statement and staging, MariaDB).
 * Every source table exists before the relay starts, so its schema comes from the start snapshot
 * (ENUM/SET labels with 4-byte characters included). After each step (a row per value, every column
 * updated on its own, every key changed, every row deleted) each consumer's images and each target
 * table equal the source column by column; the values a target refuses (docs/appliers.md) stop its
 * applier naming table, SCN, column and value, with nothing of the row written.
 */
class TypeMatrixPipelineIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final String STREAM_DB = "m_stream";

    /**
     * What PostgreSQL refuses (zero and partial-zero dates, the zero TIMESTAMP), each value with
     * how the refusal shows it.
     */
    private static final Map<String, String> POSTGRES_REFUSES =
            Map.of(
                    "c_date='0000-00-00'", "0000-00-00",
                    "c_date='2024-00-15'", "2024-00-15",
                    "c_datetime='0000-00-00 00:00:00'", "0000-00-00T00:00:00",
                    "c_datetime='2024-02-00 12:00:00.5'", "2024-02-00T12:00:00.5",
                    "c_timestamp='0000-00-00 00:00:00'", "0000-00-00 00:00:00");

    /**
     * What a strict MariaDB target refuses: a value not among the ENUM's labels. (Text with a byte
     * cp1251 leaves undefined, U+0098 on the stream, is written as the source's bytes: exact.)
     */
    private static final Map<String, String> MARIADB_REFUSES =
            Map.of("c_enum_lax=" + MariaDbTypeMatrix.INVALID_ENUM, "''");

    /** An apply path: its target, its mode and the source database it applies. */
    enum ApplyPath {
        POSTGRES_STATEMENT(true, ApplyMode.STATEMENT),
        POSTGRES_STAGING(true, ApplyMode.STAGING),
        MARIADB(false, ApplyMode.STATEMENT);

        final boolean postgres;
        final ApplyMode mode;

        ApplyPath(boolean postgres, ApplyMode mode) {
            this.postgres = postgres;
            this.mode = mode;
        }

        String database() {
            return "m_" + name().toLowerCase(java.util.Locale.ROOT);
        }

        boolean refuses(TypeCase c, String value) {
            return refused(c, value) != null;
        }

        /** How the refusal of a value shows it, or null if the path takes it. */
        String refused(TypeCase c, String value) {
            return (postgres ? POSTGRES_REFUSES : MARIADB_REFUSES).get(c.name() + "=" + value);
        }

        Target target() {
            return postgres ? Target.of(POSTGRES.database()) : Target.of(MARIADB_TARGET.server());
        }

        MatrixWorkload workload() {
            return new MatrixWorkload(database() + ".t", this::refuses);
        }
    }

    /**
     * A refused value on an apply path, in a source database of its own, and how the refusal shows
     * it.
     */
    record Refusal(ApplyPath path, TypeCase c, String value, String shown, String database) {}

    @TempDir static Path relayState;
    @TempDir Path work;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void createTablesThenStartRelay() throws Exception {
        List<String> sql = new ArrayList<>();
        List<String> databases = new ArrayList<>(List.of(STREAM_DB));
        for (ApplyPath path : ApplyPath.values()) {
            databases.add(path.database());
        }
        refusals().forEach(r -> databases.add(r.database()));
        for (String db : databases) {
            sql.add("CREATE DATABASE " + db);
            sql.add(MariaDbTypeMatrix.createTable(db + ".t"));
        }
        SOURCE.server().execute(sql.toArray(String[]::new));
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_811);
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

    private static List<Refusal> refusals() {
        List<Refusal> all = new ArrayList<>();
        for (ApplyPath path : ApplyPath.values()) {
            for (TypeCase c : MariaDbTypeMatrix.CASES) {
                for (String value : c.values()) {
                    String shown = path.refused(c, value);
                    if (shown != null) {
                        all.add(
                                new Refusal(
                                        path, c, value, shown, "r" + all.size() + "_" + c.name()));
                    }
                }
            }
        }
        return all;
    }

    @Test
    void shouldDeliverEveryValueExactlyToTheBinaryAndJsonConsumersAfterEveryStep()
            throws Exception {
        List<ChangeEvent> binary = new CopyOnWriteArrayList<>();
        Consumer consumer =
                Pipeline.consume(
                        relay,
                        STREAM_DB,
                        event -> {
                            if (event.operation().isRowChange()) {
                                binary.add(event.toChangeEvent());
                            }
                            return CallbackResult.SUCCESS;
                        },
                        new FileCheckpointStore(work.resolve("checkpoint")),
                        50);
        closing.add(consumer);
        MatrixStream json = new MatrixStream(relay, STREAM_DB);
        MatrixWorkload workload = new MatrixWorkload(STREAM_DB + ".t", (c, v) -> false);
        Map<Long, Object[]> binaryImages = new HashMap<>();
        Map<Long, Object[]> jsonImages = new HashMap<>();
        String table = workload.table();

        List<String[]> steps = steps(workload);
        for (String[] step : steps) {
            int expected = binary.size() + workload.rows();
            SOURCE.server().execute(step);
            Pipeline.awaitUntil(consumer, () -> binary.size() >= expected, Duration.ofSeconds(30));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () -> {
                                json.read(binary);
                                return json.events().size() >= expected;
                            });
            assertThat(binary).hasSize(expected);
            assertThat(json.events()).isEqualTo(binary);
            List<ChangeEvent> latest = binary.subList(expected - workload.rows(), expected);
            apply(latest, binaryImages);
            apply(json.events().subList(expected - workload.rows(), expected), jsonImages);
            compareWithSource(latest.get(0).schema(), table, binaryImages, "binary consumer");
            compareWithSource(latest.get(0).schema(), table, jsonImages, "JSON stream");
        }
        assertThat(binaryImages).isEmpty();
    }

    @Test
    void shouldEndEqualToTheSourceAfterEveryStepOnEveryApplyPath() throws Exception {
        Map<ApplyPath, Consumer> consumers = new HashMap<>();
        Map<ApplyPath, List<String[]>> steps = new HashMap<>();
        for (ApplyPath path : ApplyPath.values()) {
            consumers.put(path, apply(path, path.database()));
            steps.put(path, steps(path.workload()));
        }
        int count = steps.get(ApplyPath.MARIADB).size();
        for (int s = 0; s < count; s++) {
            for (ApplyPath path : ApplyPath.values()) {
                SOURCE.server().execute(steps.get(path).get(s));
            }
            for (ApplyPath path : ApplyPath.values()) {
                assertEqualEventually(path, consumers.get(path), s);
            }
        }
    }

    @Test
    void shouldStopNamingTableScnColumnAndValueWhenATargetRefusesAValue() throws Exception {
        List<Refusal> refusals = refusals();
        Map<Refusal, Consumer> consumers = new HashMap<>();
        for (Refusal r : refusals) {
            SOURCE.server()
                    .execute(
                            MatrixWorkload.SESSION,
                            "INSERT INTO "
                                    + r.database()
                                    + ".t (id, `"
                                    + r.c().name()
                                    + "`) VALUES (1, "
                                    + r.value()
                                    + ")");
            consumers.put(r, apply(r.path(), r.database()));
        }
        for (Refusal r : refusals) {
            Consumer consumer = consumers.get(r);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.state() == ConsumerState.FAILED);
            Target target = r.path().target();
            assertThat(consumer.failure().orElseThrow())
                    .as("refusal on %s of %s", r.path(), r.value())
                    .hasStackTraceContaining("table=" + target.table(r.database(), "t") + ", scn=")
                    .hasStackTraceContaining("key=[1]")
                    .hasStackTraceContaining("column=" + r.c().name() + ", value=" + r.shown());
            long rows;
            try {
                rows = target.count("SELECT count(*) FROM " + target.table(r.database(), "t"));
            } catch (SQLException e) {
                rows = 0; // the table may not be created before its first row is refused
            }
            assertThat(rows).as("rows written on %s of %s", r.path(), r.value()).isZero();
        }
    }

    private Consumer apply(ApplyPath path, String database) throws Exception {
        Target target = path.target();
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(database)
                                .mode(path.mode)
                                .build());
        closing.add(applier);
        Consumer consumer =
                Pipeline.consume(relay, database, applier, applier.checkpointStore(), 50);
        closing.add(consumer);
        return consumer;
    }

    /** Insert, an update per column, the key change, the delete. */
    private static List<String[]> steps(MatrixWorkload workload) {
        List<String[]> steps = new ArrayList<>();
        steps.add(workload.inserts());
        for (TypeCase c : MariaDbTypeMatrix.CASES) {
            steps.add(workload.update(c));
        }
        steps.add(workload.keyChange());
        steps.add(workload.delete());
        return steps;
    }

    /** Each event's before image must be the image before it; its after image is kept. */
    private static void apply(List<ChangeEvent> events, Map<Long, Object[]> images) {
        for (ChangeEvent event : events) {
            if (event.before() != null) {
                Object[] previous = images.remove((Long) event.before()[0]);
                assertThat(previous).as("image before the change").isNotNull();
                assertThat(event.before()).containsExactly(previous);
            }
            if (event.after() != null) {
                images.put((Long) event.after()[0], event.after());
            }
        }
    }

    /** Every column of every source row against the latest image a consumer was given. */
    private static void compareWithSource(
            TableSchema schema, String table, Map<Long, Object[]> images, String consumer)
            throws SQLException {
        int found = 0;
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(MariaDbTypeMatrix.selectCanonical(table))) {
            while (rs.next()) {
                found++;
                long id = rs.getLong(1);
                Object[] image = images.get(id);
                assertThat(image).as("%s: image of row id=%d", consumer, id).isNotNull();
                for (int i = 0; i < MariaDbTypeMatrix.CASES.size(); i++) {
                    TypeCase c = MariaDbTypeMatrix.CASES.get(i);
                    int column = schema.indexOf(c.name());
                    String source = rs.getString(i + 2);
                    assertThat(c.check().matches(source, image[column], schema.column(column)))
                            .as(
                                    "%s: row id=%d, column=%s, source=%.200s, published=%.200s",
                                    consumer, id, c.name(), source, String.valueOf(image[column]))
                            .isTrue();
                }
            }
        }
        assertThat(found).as("%s: rows", consumer).isEqualTo(images.size());
    }

    /** The target table of a path equals the source after step {@code step}, else names how. */
    private static void assertEqualEventually(ApplyPath path, Consumer consumer, int step)
            throws Exception {
        String db = path.database();
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = MatrixCanon.mariaDb(connection, db + ".t", path.postgres);
        }
        Target target = path.target();
        List<List<String>> last = new ArrayList<>(List.of(List.of()));
        try {
            Pipeline.awaitUntil(
                    consumer,
                    () -> {
                        try (Connection connection = target.connect()) {
                            String table = target.table(db, "t");
                            last.set(
                                    0,
                                    path.postgres
                                            ? MatrixCanon.postgres(connection, table)
                                            : MatrixCanon.mariaDb(connection, table, false));
                            return last.get(0).equals(source);
                        } catch (SQLException e) {
                            return false; // the table may not exist yet
                        }
                    },
                    Duration.ofSeconds(30));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "target differs: path="
                            + path
                            + ", step="
                            + step
                            + ", "
                            + firstDifference(source, last.get(0)),
                    e);
        }
    }

    /** The first row the two sides differ in, as the columns that differ, source -> target. */
    private static String firstDifference(List<String> source, List<String> target) {
        for (int r = 0; r < Math.min(source.size(), target.size()); r++) {
            String[] a = source.get(r).split(" \\| ");
            String[] b = target.get(r).split(" \\| ");
            if (!source.get(r).equals(target.get(r))) {
                StringBuilder text = new StringBuilder(a[0]);
                for (int i = 0; i < Math.min(a.length, b.length); i++) {
                    if (!a[i].equals(b[i])) {
                        text.append("; ")
                                .append(a[i], 0, Math.min(120, a[i].length()))
                                .append(" -> ")
                                .append(b[i], 0, Math.min(120, b[i].length()));
                    }
                }
                return text.toString();
            }
        }
        return "rows: source=" + source.size() + ", target=" + target.size();
    }
}
