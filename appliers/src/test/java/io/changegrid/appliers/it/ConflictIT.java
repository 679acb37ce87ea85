package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.policy.conflict.ConflictResolver;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The policy engine's conflict rules on the apply path: target rows changed elsewhere (by another
 * source's applier, with a newer version) are kept under last-writer-wins, and rejected changes
 * reach the rejection listener.
 */
class ConflictIT {

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
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_805);
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

    private Consumer start(String database, ConflictResolver resolver) throws Exception {
        return start(Target.of(POSTGRES.database()), database, resolver);
    }

    private Consumer start(Target target, String database, ConflictResolver resolver)
            throws Exception {
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(database)
                                .conflicts(resolver)
                                .build());
        closing.add(applier);
        Consumer consumer =
                Pipeline.consume(relay, database, applier, applier.checkpointStore(), 10);
        closing.add(consumer);
        return consumer;
    }

    private static List<String> rows(String database) throws SQLException {
        return rows(Target.of(POSTGRES.database()), database);
    }

    private static List<String> rows(Target target, String database) throws SQLException {
        try (Connection connection = target.connect()) {
            return TableContents.rows(
                    connection,
                    target.table(database, "t"),
                    List.of(
                            Spec.of("id", Canon.TEXT),
                            Spec.of("v", Canon.TEXT),
                            Spec.of("_cg_source", Canon.TEXT)),
                    target.postgres());
        }
    }

    private static boolean has(String database, String row) {
        return has(Target.of(POSTGRES.database()), database, row);
    }

    private static boolean has(Target target, String database, String row) {
        try {
            return rows(target, database).contains(row);
        } catch (SQLException e) {
            return false;
        }
    }

    private static Target target(String name) {
        return name.equals("postgres")
                ? Target.of(POSTGRES.database())
                : Target.of(MARIADB_TARGET.server());
    }

    private static boolean waitingForALock(Target target) {
        try {
            return target.count(
                            target.postgres()
                                    ? "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type"
                                            + " = 'Lock' AND datname = current_database()"
                                    : "SELECT count(*) FROM information_schema.innodb_trx WHERE"
                                            + " trx_state = 'LOCK WAIT'")
                    > 0;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Another source's applier changes row 1 and inserts row 3, both newer than the source's
     * changes, and commits only once the applier is waiting for its locks: i.e. after the applier
     * could have read the rows' versions without it. Last-writer-wins must keep both rows.
     */
    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldKeepANewerWriteWhenItCommitsBetweenTheVersionCheckAndTheWrite(String name)
            throws Exception {
        Target target = target(name);
        String db = "race_" + name;
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO " + db + ".t VALUES (1, 'one'), (2, 'two')");
        Consumer consumer = start(target, db, new ConflictResolver.LastWriterWinsByCommitTime());
        Pipeline.awaitUntil(
                consumer,
                () -> has(target, db, "id=2 | v=two | _cg_source=1"),
                Duration.ofSeconds(30));
        try (Connection elsewhere = target.connect()) {
            elsewhere.setAutoCommit(false);
            try (var statement = elsewhere.createStatement()) {
                statement.execute(
                        "UPDATE "
                                + target.table(db, "t")
                                + " SET v = 'elsewhere', _cg_source = 2, _cg_scn = 5,"
                                + " _cg_commit_us = 9000000000000000 WHERE id = 1");
                statement.execute(
                        "INSERT INTO "
                                + target.table(db, "t")
                                + " VALUES (3, 'elsewhere', 2, 6, 9000000000000000)");
            }
            SOURCE.server()
                    .execute(
                            "BEGIN",
                            "UPDATE " + db + ".t SET v = 'source' WHERE id = 1",
                            "INSERT INTO " + db + ".t VALUES (3, 'source')",
                            "COMMIT");
            Pipeline.awaitUntil(consumer, () -> waitingForALock(target), Duration.ofSeconds(30));
            elsewhere.commit();
        }
        SOURCE.server().execute("INSERT INTO " + db + ".t VALUES (4, 'four')");
        Pipeline.awaitUntil(
                consumer,
                () -> has(target, db, "id=4 | v=four | _cg_source=1"),
                Duration.ofSeconds(30));
        assertThat(rows(target, db))
                .containsExactly(
                        "id=1 | v=elsewhere | _cg_source=2",
                        "id=2 | v=two | _cg_source=1",
                        "id=3 | v=elsewhere | _cg_source=2",
                        "id=4 | v=four | _cg_source=1");
    }

    @Test
    void shouldKeepTheNewerRowWhenTheTargetRowWasChangedElsewhereLater() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE lww",
                        "CREATE TABLE lww.t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO lww.t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        Consumer consumer = start("lww", new ConflictResolver.LastWriterWinsByCommitTime());
        Pipeline.awaitUntil(
                consumer,
                () -> has("lww", "id=3 | v=three | _cg_source=1"),
                Duration.ofSeconds(30));
        // Another source's applier wrote row 1 with a commit time far in the future; a local
        // application wrote row 2 without any version.
        target.execute(
                "UPDATE lww.t SET v = 'elsewhere', _cg_source = 2, _cg_scn = 5,"
                        + " _cg_commit_us = 9000000000000000 WHERE id = 1",
                "UPDATE lww.t SET v = 'local', _cg_source = NULL, _cg_scn = NULL, _cg_commit_us = NULL"
                        + " WHERE id = 2");
        SOURCE.server()
                .execute(
                        "UPDATE lww.t SET v = 'source 1' WHERE id = 1",
                        "UPDATE lww.t SET v = 'source 2' WHERE id = 2",
                        "UPDATE lww.t SET v = 'source 3' WHERE id = 3");
        Pipeline.awaitUntil(
                consumer,
                () -> has("lww", "id=3 | v=source 3 | _cg_source=1"),
                Duration.ofSeconds(30));
        assertThat(rows("lww"))
                .containsExactly(
                        "id=1 | v=elsewhere | _cg_source=2",
                        "id=2 | v=source 2 | _cg_source=1",
                        "id=3 | v=source 3 | _cg_source=1");
    }

    @Test
    void shouldRecordTheRejectedChangeWhenItMeetsARowWrittenElsewhere() throws Exception {
        Target target = Target.of(POSTGRES.database());
        List<String> rejected = new CopyOnWriteArrayList<>();
        SOURCE.server()
                .execute(
                        "CREATE DATABASE reject",
                        "CREATE TABLE reject.t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO reject.t VALUES (1, 'one')");
        Consumer consumer =
                start(
                        "reject",
                        new ConflictResolver.RejectAndRecord(
                                (incoming, current, reason) ->
                                        rejected.add(incoming.scn() + " " + reason)));
        Pipeline.awaitUntil(
                consumer,
                () -> has("reject", "id=1 | v=one | _cg_source=1"),
                Duration.ofSeconds(30));
        target.execute("INSERT INTO reject.t VALUES (2, 'theirs', 3, 7, 1)");
        SOURCE.server()
                .execute(
                        "INSERT INTO reject.t VALUES (2, 'ours')",
                        "INSERT INTO reject.t VALUES (4, 'four')");
        Pipeline.awaitUntil(
                consumer,
                () -> has("reject", "id=4 | v=four | _cg_source=1"),
                Duration.ofSeconds(30));
        assertThat(rows("reject")).contains("id=2 | v=theirs | _cg_source=3");
        assertThat(rejected).hasSize(1);
        assertThat(rejected.get(0)).contains("row exists").contains("sourceId=3");
    }

    /**
     * The runnable applier ({@code ApplierMain} in its own JVM) given {@code apply.conflict}: a
     * target row changed elsewhere with a later commit time keeps its value against the source's
     * older change, while other rows flow.
     */
    @Test
    void shouldKeepTheNewerTargetRowWhenApplierMainIsGivenAConflictRule() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE main_lww",
                        "CREATE TABLE main_lww.t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO main_lww.t VALUES (1, 'one')");
        Map<String, String> settings = new HashMap<>();
        settings.put("relays", Pipeline.url(relay));
        settings.put("subscription.tables", "main_lww.*");
        settings.put("fetch.pollTimeout", "1s");
        settings.put("target.url", target.url());
        if (target.user() != null) {
            settings.put("target.user", target.user());
        }
        if (target.password() != null) {
            settings.put("target.password", target.password());
        }
        settings.put("apply.consumerGroup", "main_lww");
        settings.put("apply.conflict", "last-writer-wins-by-commit-time");
        try (JavaProcess applier = ApplierJvm.start(settings, work.resolve("applier.log"))) {
            awaitRow(applier, "main_lww", "id=1 | v=one | _cg_source=1");
            target.execute(
                    "UPDATE main_lww.t SET v = 'elsewhere', _cg_source = 2, _cg_scn = 5,"
                            + " _cg_commit_us = 9000000000000000 WHERE id = 1");
            SOURCE.server()
                    .execute(
                            "UPDATE main_lww.t SET v = 'source' WHERE id = 1",
                            "INSERT INTO main_lww.t VALUES (2, 'two')");
            awaitRow(applier, "main_lww", "id=2 | v=two | _cg_source=1");
            assertThat(rows("main_lww"))
                    .containsExactly(
                            "id=1 | v=elsewhere | _cg_source=2", "id=2 | v=two | _cg_source=1");
        }
    }

    private static void awaitRow(JavaProcess applier, String database, String row)
            throws Exception {
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !applier.isAlive() || has(database, row));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("row not applied: " + row + "; log:\n" + applier.logTail(), e);
        }
        assertThat(applier.isAlive()).as("applier alive; log:\n%s", applier.logTail()).isTrue();
    }
}
