package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDBC applier behind a real relay and consumer, from a private MariaDB source into the local
 * PostgreSQL and into a second private MariaDB: every column type ends equal row by row, key
 * updates and deletes of missing rows behave as documented, a restart from an older consumer
 * checkpoint applies nothing twice, and a newer epoch fences the applier.
 */
class ApplierIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir static Path relayState;
    @TempDir Path work;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startRelay() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_801);
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

    private JdbcApplier applier(Target target, String group, ApplierOptions.Builder options)
            throws SQLException {
        JdbcApplier applier =
                JdbcApplier.open(
                        options.credentials(target.user(), target.password())
                                .consumerGroup(group)
                                .build());
        closing.add(applier);
        return applier;
    }

    private Consumer consume(String database, JdbcApplier applier, int batch) throws Exception {
        Consumer consumer =
                Pipeline.consume(relay, database, applier, applier.checkpointStore(), batch);
        closing.add(consumer);
        return consumer;
    }

    private static long seed() {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        return seed;
    }

    private void assertEqualEventually(
            Consumer consumer, Target target, String database, String table, List<Spec> columns)
            throws Exception {
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = TableContents.rows(connection, database + "." + table, columns, false);
        }
        AtomicLong attempts = new AtomicLong();
        List<List<String>> last = new ArrayList<>(List.of(List.of()));
        try {
            Pipeline.awaitUntil(
                    consumer,
                    () -> {
                        attempts.incrementAndGet();
                        try (Connection connection = target.connect()) {
                            last.set(
                                    0,
                                    TableContents.rows(
                                            connection,
                                            target.table(database, table),
                                            columns,
                                            target.postgres()));
                            return last.get(0).equals(source);
                        } catch (SQLException e) {
                            return false; // the table may not exist yet
                        }
                    },
                    Duration.ofSeconds(60));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            List<String> missing = new ArrayList<>(source);
            missing.removeAll(last.get(0));
            List<String> extra = new ArrayList<>(last.get(0));
            extra.removeAll(source);
            throw new AssertionError(
                    "target differs: table="
                            + database
                            + "."
                            + table
                            + ", target="
                            + target.name()
                            + ", missing="
                            + missing.size()
                            + ", extra="
                            + extra.size()
                            + (missing.isEmpty() || extra.isEmpty()
                                    ? ""
                                    : ", first difference: "
                                            + difference(missing.get(0), extra.get(0))),
                    e);
        }
        assertThat(last.get(0))
                .as("rows of %s.%s in %s", database, table, target.name())
                .isEqualTo(source);
        assertThat(TableContents.checksum(last.get(0))).isEqualTo(TableContents.checksum(source));
    }

    /** The columns two rows differ in, each as source -> target, values cut to 80 characters. */
    private static String difference(String source, String target) {
        String[] a = source.split(" \\| ");
        String[] b = target.split(" \\| ");
        StringBuilder text = new StringBuilder(a[0]);
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (!a[i].equals(b[i])) {
                text.append("; ")
                        .append(a[i], 0, Math.min(80, a[i].length()))
                        .append(" -> ")
                        .append(b[i], 0, Math.min(80, b[i].length()));
            }
        }
        return text.toString();
    }

    private void shouldReplicateEveryColumnType(Target target, String database, ApplyMode mode)
            throws Exception {
        long seed = seed();
        try (Connection connection = SOURCE.server().connect();
                var statement = connection.createStatement()) {
            AllTypesWorkload.create(statement, database);
        }
        AllTypesWorkload workload = new AllTypesWorkload(database, seed, !target.postgres());
        try (Connection connection = SOURCE.server().connect()) {
            workload.run(connection, 150);
        }
        JdbcApplier applier =
                applier(
                        target,
                        database,
                        ApplierOptions.builder(target.url()).maxRows(200).mode(mode));
        Consumer consumer = consume(database, applier, 25);
        try (Connection connection = SOURCE.server().connect()) {
            workload.run(connection, 150); // while the consumer applies
        }
        assertEqualEventually(consumer, target, database, "alltypes", AllTypesWorkload.ALLTYPES);
        assertEqualEventually(consumer, target, database, "accounts", AllTypesWorkload.ACCOUNTS);
        assertEqualEventually(consumer, target, database, "blobs", AllTypesWorkload.BLOBS);
        assertThat(applier.rowsApplied()).isPositive();
    }

    @ParameterizedTest(name = "apply.mode={0}")
    @EnumSource(ApplyMode.class)
    void shouldEndWithEqualTablesWhenEveryColumnTypeIsReplicatedIntoPostgres(ApplyMode mode)
            throws Exception {
        shouldReplicateEveryColumnType(
                Target.of(POSTGRES.database()),
                "types_pg_" + mode.name().toLowerCase(java.util.Locale.ROOT),
                mode);
    }

    @Test
    void shouldEndWithEqualTablesWhenEveryColumnTypeIsReplicatedIntoMariaDb() throws Exception {
        shouldReplicateEveryColumnType(
                Target.of(MARIADB_TARGET.server()), "types_maria", ApplyMode.STATEMENT);
    }

    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldWriteOnlyChangedColumnsWhenTheKeyStaysAndTheWholeImageWhenTheRowIsMissing(
            String name) throws Exception {
        Target target = target(name);
        String db = "changed_" + name;
        String table = target.table(db, "t");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE "
                                + db
                                + ".t (id INT PRIMARY KEY, a VARCHAR(20), b VARCHAR(20))",
                        "INSERT INTO " + db + ".t VALUES (1, 'a1', 'b1'), (2, 'a2', 'b2')");
        JdbcApplier applier = applier(target, db, ApplierOptions.builder(target.url()));
        Consumer consumer = consume(db, applier, 10);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> safeCount(target, "SELECT count(*) FROM " + table) == 2);
        // Changed in the target meanwhile: a column the source will not touch, and a row gone.
        target.execute(
                "UPDATE " + table + " SET b = 'local' WHERE id = 1",
                "DELETE FROM " + table + " WHERE id = 2");
        SOURCE.server()
                .execute(
                        "UPDATE " + db + ".t SET a = 'A1' WHERE id = 1",
                        "UPDATE " + db + ".t SET a = 'A2' WHERE id = 2",
                        "INSERT INTO " + db + ".t VALUES (3, 'a3', 'b3')");
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM " + table + " WHERE id = 3") == 1,
                Duration.ofSeconds(30));
        try (Connection connection = target.connect()) {
            assertThat(
                            TableContents.rows(
                                    connection,
                                    table,
                                    List.of(
                                            Spec.of("id", Canon.TEXT),
                                            Spec.of("a", Canon.TEXT),
                                            Spec.of("b", Canon.TEXT)),
                                    target.postgres()))
                    .containsExactly(
                            "id=1 | a=A1 | b=local", // only the changed column was written
                            "id=2 | a=A2 | b=b2", // missing: the whole after image
                            "id=3 | a=a3 | b=b3");
        }
    }

    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldApplyEveryUpdateWhenMoreColumnSetsChangeThanStatementsAreKeptPrepared(String name)
            throws Exception {
        Target target = target(name);
        String db = "column_sets_" + name;
        String table = target.table(db, "t");
        String columns = "c1 INT, c2 INT, c3 INT, c4 INT, c5 INT, c6 INT, c7 INT";
        List<String> statements = new ArrayList<>();
        statements.add("CREATE DATABASE " + db);
        statements.add("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, " + columns + ")");
        StringBuilder rows = new StringBuilder("INSERT INTO " + db + ".t VALUES ");
        for (int id = 1; id <= 127; id++) {
            rows.append(id == 1 ? "" : ", ").append("(").append(id).append(", 0,0,0,0,0,0,0)");
        }
        statements.add(rows.toString());
        SOURCE.server().execute(statements.toArray(String[]::new));
        JdbcApplier applier = applier(target, db, ApplierOptions.builder(target.url()));
        Consumer consumer = consume(db, applier, 1000);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> safeCount(target, "SELECT count(*) FROM " + table) == 127);
        // Row m changes exactly the columns of m's bits: 127 different column sets, more than a
        // lane keeps prepared, so statements are evicted and prepared again along the way.
        List<String> updates = new ArrayList<>();
        for (int m = 1; m <= 127; m++) {
            StringBuilder set = new StringBuilder();
            for (int bit = 0; bit < 7; bit++) {
                if ((m & (1 << bit)) != 0) {
                    set.append(set.length() == 0 ? "" : ", ").append("c" + (bit + 1) + " = " + m);
                }
            }
            updates.add("UPDATE " + db + ".t SET " + set + " WHERE id = " + m);
        }
        updates.add("INSERT INTO " + db + ".t VALUES (128, 0,0,0,0,0,0,0)");
        SOURCE.server().execute(updates.toArray(String[]::new));
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM " + table + " WHERE id = 128") == 1,
                Duration.ofSeconds(30));
        StringBuilder expected =
                new StringBuilder("SELECT count(*) FROM " + table + " WHERE id <= 127");
        for (int bit = 0; bit < 7; bit++) {
            expected.append(" AND c")
                    .append(bit + 1)
                    .append(" = CASE WHEN (id & ")
                    .append(1 << bit)
                    .append(") <> 0 THEN id ELSE 0 END");
        }
        assertThat(safeCount(target, expected.toString())).isEqualTo(127);
    }

    @Test
    void shouldMoveRowsAndIgnoreMissingOnesWhenKeysChangeAndTargetRowsAreGone() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE keys1",
                        "CREATE TABLE keys1.t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO keys1.t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        JdbcApplier applier = applier(target, "keys1", ApplierOptions.builder(target.url()));
        Consumer consumer = consume("keys1", applier, 10);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> safeCount(target, "SELECT count(*) FROM \"keys1\".\"t\"") == 3);
        // Rows changed elsewhere in the target: gone before the source deletes or updates them.
        target.execute("DELETE FROM \"keys1\".\"t\" WHERE id IN (2, 3)");
        SOURCE.server()
                .execute(
                        "UPDATE keys1.t SET id = 10 WHERE id = 1", // key change: delete 1, upsert
                        // 10
                        "DELETE FROM keys1.t WHERE id = 2", // missing in the target: no change
                        "UPDATE keys1.t SET v = 'THREE' WHERE id = 3", // missing: inserted whole
                        "INSERT INTO keys1.t VALUES (1, 'again')"); // the old key reused
        Pipeline.awaitUntil(
                consumer,
                () ->
                        safeCount(target, "SELECT count(*) FROM \"keys1\".\"t\" WHERE v = 'again'")
                                == 1,
                Duration.ofSeconds(30));
        try (Connection connection = target.connect()) {
            assertThat(
                            TableContents.rows(
                                    connection,
                                    "\"keys1\".\"t\"",
                                    List.of(Spec.of("id", Canon.TEXT), Spec.of("v", Canon.TEXT)),
                                    true))
                    .containsExactlyInAnyOrder("id=1 | v=again", "id=3 | v=THREE", "id=10 | v=one");
        }
    }

    @Test
    void shouldApplyNothingTwiceWhenTheConsumerRestartsFromAnOlderCheckpoint() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE once",
                        "CREATE TABLE once.audit (id INT PRIMARY KEY, what VARCHAR(40))");
        target.execute(
                "CREATE SCHEMA once",
                "CREATE TABLE once.audit (id integer PRIMARY KEY, what varchar(40))",
                "CREATE TABLE once.duplicates (id integer)",
                "CREATE FUNCTION once.seen() RETURNS trigger AS $$ BEGIN"
                        + " INSERT INTO once.duplicates VALUES (OLD.id); RETURN NEW; END $$ LANGUAGE plpgsql",
                // The source only inserts: any UPDATE of an audit row is a second apply.
                "CREATE TRIGGER twice BEFORE UPDATE ON once.audit FOR EACH ROW EXECUTE FUNCTION once.seen()");
        for (int i = 1; i <= 50; i++) {
            SOURCE.server().execute("INSERT INTO once.audit VALUES (" + i + ", 'event " + i + "')");
        }
        Path fileCheckpoint = work.resolve("once.checkpoint");
        JdbcApplier first = applier(target, "once", ApplierOptions.builder(target.url()));
        Consumer consumer =
                Pipeline.consume(relay, "once", first, new FileCheckpointStore(fileCheckpoint), 7);
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM once.audit") == 50,
                Duration.ofSeconds(30));
        consumer.close();
        first.close();

        // A new consumer with no file checkpoint gets everything again from the relay.
        for (int i = 51; i <= 60; i++) {
            SOURCE.server().execute("INSERT INTO once.audit VALUES (" + i + ", 'event " + i + "')");
        }
        JdbcApplier second = applier(target, "once", ApplierOptions.builder(target.url()));
        Consumer again =
                consume(
                        "once", second,
                        5); // its store is the target's, but the relay delivers from the start
        // below
        Pipeline.awaitUntil(
                again,
                () -> safeCount(target, "SELECT count(*) FROM once.audit") == 60,
                Duration.ofSeconds(30));
        JdbcApplier third = applier(target, "once", ApplierOptions.builder(target.url()));
        Consumer fromScratch =
                Pipeline.consume(
                        relay, "once", third, new FileCheckpointStore(work.resolve("none")), 3);
        closing.add(fromScratch);
        Pipeline.awaitUntil(
                fromScratch, () -> third.transactionsSkipped() >= 60, Duration.ofSeconds(30));
        assertThat(third.transactionsApplied()).isZero();
        assertThat(target.count("SELECT count(*) FROM once.duplicates")).isZero();
        assertThat(target.count("SELECT count(*) FROM once.audit")).isEqualTo(60);
    }

    @Test
    void shouldWriteEachLanesCheckpointOnceWhenABatchCommits() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE single",
                        "CREATE TABLE single.t (id INT PRIMARY KEY, v INT)");
        target.execute(
                "CREATE SCHEMA single",
                "CREATE TABLE single.t (id integer PRIMARY KEY, v integer)");
        JdbcApplier applier =
                applier(
                        target,
                        "single",
                        ApplierOptions.builder(target.url()).lanes(2, new LaneRouter.ByKey()));
        // The consumer saves its checkpoint after every batch: a save that wrote a lane's row
        // again, at the SCN the lane's commit had just written with its rows, leaves a trace.
        // (The one save that records the relays' timeline on the rows changes them: not a trace.)
        target.execute(
                "CREATE TABLE single.rewrites (lane integer, scn bigint)",
                "CREATE FUNCTION single.rewrite() RETURNS trigger AS $$ BEGIN"
                        + " IF NEW.consumer_group = 'single' AND NEW.scn = OLD.scn"
                        + " AND NEW.partial_scn IS NOT DISTINCT FROM OLD.partial_scn"
                        + " AND NEW.partial_index IS NOT DISTINCT FROM OLD.partial_index"
                        + " AND NEW.timeline IS NOT DISTINCT FROM OLD.timeline THEN"
                        + " INSERT INTO single.rewrites VALUES (NEW.lane, NEW.scn); END IF;"
                        + " RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER rewrite BEFORE UPDATE ON public.changegrid_checkpoint FOR EACH ROW"
                        + " EXECUTE FUNCTION single.rewrite()");
        try {
            for (int i = 1; i <= 40; i++) {
                SOURCE.server().execute("INSERT INTO single.t VALUES (" + i + ", " + i + ")");
            }
            Consumer consumer = consume("single", applier, 5);
            Pipeline.awaitUntil(
                    consumer,
                    () -> safeCount(target, "SELECT count(*) FROM single.t") == 40,
                    Duration.ofSeconds(30));
            Pipeline.awaitUntil(
                    consumer,
                    () -> consumer.status().checkpointScn() >= applier.laneCheckpoints()[0],
                    Duration.ofSeconds(30));
            assertThat(applier.commits()).as("commit rounds").isGreaterThan(1);
            assertThat(target.count("SELECT count(*) FROM single.rewrites"))
                    .as("checkpoint rows written again without moving")
                    .isZero();
        } finally {
            target.execute("DROP TRIGGER rewrite ON public.changegrid_checkpoint");
        }
    }

    /**
     * Target tables with unique keys besides the primary key ({@code users.email}, {@code
     * parent.name}) and in a foreign key ({@code child.parent_id}); the source tables have none.
     */
    private static void constrainedTables(Target target, String db) throws SQLException {
        String parent = target.table(db, "parent");
        target.execute(
                (target.postgres() ? "CREATE SCHEMA " : "CREATE DATABASE ") + db,
                "CREATE TABLE " + parent + " (id INT PRIMARY KEY, name VARCHAR(20))",
                "CREATE TABLE "
                        + target.table(db, "child")
                        + " (id INT PRIMARY KEY, parent_id INT, CONSTRAINT child_parent FOREIGN KEY"
                        + " (parent_id) REFERENCES "
                        + parent
                        + " (id))",
                "CREATE UNIQUE INDEX parent_name ON " + parent + " (name)",
                "CREATE TABLE "
                        + target.table(db, "users")
                        + " (id INT PRIMARY KEY, email VARCHAR(40))",
                "CREATE UNIQUE INDEX users_email ON " + target.table(db, "users") + " (email)");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE " + db + ".parent (id INT PRIMARY KEY, name VARCHAR(20))",
                        "CREATE TABLE " + db + ".child (id INT PRIMARY KEY, parent_id INT)",
                        "CREATE TABLE " + db + ".users (id INT PRIMARY KEY, email VARCHAR(40))");
    }

    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldKeepUniqueAndForeignKeysWhenOneLaneWritesInSourceOrder(String name)
            throws Exception {
        Target target = target(name);
        String db = "ordered_" + name;
        constrainedTables(target, db);
        SOURCE.server()
                .execute(
                        "INSERT INTO " + db + ".parent VALUES (1, 'one')",
                        "INSERT INTO "
                                + db
                                + ".users VALUES (1, 'a@example.com'), (2, 'b@example.com')");
        JdbcApplier applier = applier(target, db, ApplierOptions.builder(target.url()));
        Consumer consumer = consume(db, applier, 1000);
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM " + target.table(db, "users")) == 2,
                Duration.ofSeconds(30));
        // One source transaction whose rows, coalesced and written table by table, break both
        // keys: the child table comes first (its row 1 moves to parent 2 before parent 2
        // exists), and user 1 takes user 2's email before user 2 lets go of it.
        try (Connection connection = SOURCE.server().connect();
                var statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (String sql :
                    List.of(
                            "INSERT INTO " + db + ".child VALUES (1, 1)",
                            "INSERT INTO " + db + ".parent VALUES (2, 'two')",
                            "INSERT INTO " + db + ".child VALUES (2, 2)",
                            "UPDATE " + db + ".users SET email = 'swap' WHERE id = 1",
                            "UPDATE " + db + ".users SET email = 'a@example.com' WHERE id = 2",
                            "UPDATE " + db + ".users SET email = 'b@example.com' WHERE id = 1",
                            "UPDATE " + db + ".child SET parent_id = 2 WHERE id = 1",
                            "DELETE FROM " + db + ".parent WHERE id = 1",
                            "INSERT INTO " + db + ".users VALUES (3, 'c@example.com')")) {
                statement.execute(sql);
            }
            connection.commit();
        }
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM " + target.table(db, "users")) == 3,
                Duration.ofSeconds(30));
        try (Connection connection = target.connect()) {
            List<Spec> id = List.of(Spec.of("id", Canon.TEXT));
            assertThat(
                            TableContents.rows(
                                    connection,
                                    target.table(db, "users"),
                                    List.of(
                                            Spec.of("id", Canon.TEXT),
                                            Spec.of("email", Canon.TEXT)),
                                    target.postgres()))
                    .containsExactly(
                            "id=1 | email=b@example.com",
                            "id=2 | email=a@example.com",
                            "id=3 | email=c@example.com");
            assertThat(
                            TableContents.rows(
                                    connection,
                                    target.table(db, "child"),
                                    List.of(
                                            Spec.of("id", Canon.TEXT),
                                            Spec.of("parent_id", Canon.TEXT)),
                                    target.postgres()))
                    .containsExactly("id=1 | parent_id=2", "id=2 | parent_id=2");
            assertThat(
                            TableContents.rows(
                                    connection, target.table(db, "parent"), id, target.postgres()))
                    .containsExactly("id=2");
        }
    }

    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldRefuseUniqueAndForeignKeysWhenLanesWriteOutOfSourceOrder(String name)
            throws Exception {
        Target target = target(name);
        String db = "unordered_" + name;
        constrainedTables(target, db);
        SOURCE.server()
                .execute(
                        "INSERT INTO " + db + ".parent VALUES (1, 'one')",
                        "INSERT INTO " + db + ".users VALUES (1, 'a@example.com')");
        String parent = target.table(db, "parent");
        String refused =
                "only writes in source commit order keep: table="
                        + parent
                        + ", uniqueKeys=[parent_name], foreignKeys=[child_parent], writesOutOfOrder=";
        assertRefusedBeforeItsFirstRow(
                target,
                db,
                db,
                ApplierOptions.builder(target.url()).lanes(2, LaneRouter.parse("key")),
                parent,
                refused + "apply.lanes=2");
        if (target.postgres()) {
            assertRefusedBeforeItsFirstRow(
                    target,
                    db,
                    db + "_staging",
                    ApplierOptions.builder(target.url()).mode(ApplyMode.STAGING),
                    parent,
                    refused + "apply.mode=staging");
        }
    }

    /**
     * The applier of {@code db} in consumer group {@code group} stops on the table's first row,
     * saying each of {@code texts}.
     */
    private void assertRefusedBeforeItsFirstRow(
            Target target,
            String db,
            String group,
            ApplierOptions.Builder options,
            String table,
            String... texts)
            throws Exception {
        Consumer consumer = consume(db, applier(target, group, options), 10);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        for (String text : texts) {
            assertThat(consumer.failure().orElseThrow()).hasStackTraceContaining(text);
        }
        assertThat(target.count("SELECT count(*) FROM " + table)).isZero();
    }

    @Test
    void shouldFailTheBatchWhenANewerEpochOwnsTheCheckpoint() throws Exception {
        Target target = Target.of(MARIADB_TARGET.server());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE fence",
                        "CREATE TABLE fence.t (id INT PRIMARY KEY, v INT)",
                        "INSERT INTO fence.t VALUES (1, 1)");
        JdbcApplier old =
                applier(target, "fence", ApplierOptions.builder(target.url()).epoch(() -> 3));
        Consumer consumer = consume("fence", old, 10);
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM fence.t") == 1,
                Duration.ofSeconds(30));
        // A new owner took the partition with epoch 4 and wrote its checkpoint.
        target.execute(
                "UPDATE changegrid.changegrid_checkpoint SET epoch = 4 WHERE consumer_group = 'fence'");
        SOURCE.server().execute("INSERT INTO fence.t VALUES (2, 2)");
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure().orElseThrow())
                .hasStackTraceContaining("fenced: a newer owner wrote the checkpoint")
                .hasStackTraceContaining("epoch=3");
        assertThat(target.count("SELECT count(*) FROM fence.t")).isEqualTo(1);
    }

    @Test
    void shouldOverwriteTheRowWhenTheSourceInsertsAKeyTheMariaDbTargetAlreadyHas()
            throws Exception {
        Target target = Target.of(MARIADB_TARGET.server());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE clash",
                        "CREATE TABLE clash.t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO clash.t VALUES (1, 'one')");
        JdbcApplier applier = applier(target, "clash", ApplierOptions.builder(target.url()));
        Consumer consumer = consume("clash", applier, 10);
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM clash.t") == 1,
                Duration.ofSeconds(30));
        // Written elsewhere: the plain INSERT of the source's row 2 meets it.
        target.execute("INSERT INTO clash.t VALUES (2, 'elsewhere')");
        SOURCE.server().execute("INSERT INTO clash.t VALUES (2, 'two'), (3, 'three')");
        Pipeline.awaitUntil(
                consumer,
                () ->
                        safeCount(
                                        target,
                                        "SELECT count(*) FROM clash.t WHERE v IN ('two', 'three')")
                                == 2,
                Duration.ofSeconds(30));
        assertThat(applier.insertFallbacks()).isEqualTo(1);
        assertThat(target.count("SELECT count(*) FROM clash.t")).isEqualTo(3);
    }

    /** The target named by a parameterized test: {@code postgres} or {@code mariadb}. */
    private static Target target(String name) {
        return name.equals("postgres")
                ? Target.of(POSTGRES.database())
                : Target.of(MARIADB_TARGET.server());
    }

    private static long safeCount(Target target, String sql) {
        try {
            return target.count(sql);
        } catch (SQLException e) {
            return -1;
        }
    }
}
