package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code apply.refusedRows=park} against real targets: a row the target refuses parks its table,
 * the other tables (also rows in the same source transactions) keep arriving equal to the source,
 * the dead-letter table holds the refused change and the ones after it, the table of parked tables
 * the error; an applier restarted while the table is parked records on without doubles; after the
 * operator fixes the target and asks, the parked table catches up and equals the source.
 */
class ParkIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final List<Spec> COLUMNS =
            List.of(Spec.of("id", Canon.TEXT), Spec.of("v", Canon.TEXT));

    @TempDir static Path relayState;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startRelay() throws Exception {
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

    private static Target target(String name) {
        return name.equals("postgres")
                ? Target.of(POSTGRES.database())
                : Target.of(MARIADB_TARGET.server());
    }

    private JdbcApplier applier(Target target, String group, int lanes) throws SQLException {
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(group)
                                .lanes(lanes, LaneRouter.parse("key"))
                                .parkRefusedTables(true)
                                .build());
        closing.add(applier);
        return applier;
    }

    private Consumer consume(String database, JdbcApplier applier) throws Exception {
        Consumer consumer =
                Pipeline.consume(relay, database, applier, applier.checkpointStore(), 10);
        closing.add(consumer);
        return consumer;
    }

    private static List<String> sourceRows(String db, String table) throws SQLException {
        try (Connection connection = SOURCE.server().connect()) {
            return TableContents.rows(connection, db + "." + table, COLUMNS, false);
        }
    }

    private static List<String> targetRows(Target target, String db, String table) {
        try (Connection connection = target.connect()) {
            return TableContents.rows(
                    connection, target.table(db, table), COLUMNS, target.postgres());
        } catch (SQLException e) {
            return List.of(); // not created yet
        }
    }

    private static void awaitEqual(Consumer consumer, Target target, String db, String table)
            throws SQLException {
        List<String> source = sourceRows(db, table);
        Pipeline.awaitUntil(
                consumer,
                () -> targetRows(target, db, table).equals(source),
                Duration.ofSeconds(60));
        assertThat(TableContents.checksum(targetRows(target, db, table)))
                .isEqualTo(TableContents.checksum(source));
    }

    private static String checkpointTable(Target target, String suffix) {
        return target.table(
                target.postgres() ? "public" : "changegrid", "changegrid_checkpoint" + suffix);
    }

    /** The dead-letter rows as {@code scn/index/part operation}, in source order. */
    private static List<String> recorded(Target target, String deadLetter, String where) {
        List<String> rows = new ArrayList<>();
        try (Connection connection = target.connect();
                var statement = connection.createStatement();
                var result =
                        statement.executeQuery(
                                "SELECT scn, event_index, part, operation FROM "
                                        + deadLetter
                                        + where
                                        + " ORDER BY scn, event_index, part")) {
            while (result.next()) {
                rows.add(
                        result.getLong(1)
                                + "/"
                                + result.getInt(2)
                                + "/"
                                + result.getInt(3)
                                + " "
                                + result.getString(4));
            }
        } catch (SQLException e) {
            rows.add(e.toString());
        }
        return rows;
    }

    private static void awaitRecorded(
            Consumer consumer, Target target, String deadLetter, String where, int count) {
        try {
            Pipeline.awaitUntil(
                    consumer,
                    () -> recorded(target, deadLetter, where).size() == count,
                    Duration.ofSeconds(30));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            assertThat(recorded(target, deadLetter, where)).hasSize(count);
        }
    }

    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldParkATableWhoseRowIsRefusedAndReplayItWhenTheOperatorResumesIt(String name)
            throws Exception {
        Target target = target(name);
        String db = "park_" + name;
        int lanes = target.postgres() ? 2 : 1;
        String deadLetter = checkpointTable(target, "_dead_letter");
        String parked = checkpointTable(target, "_parked");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE " + db + ".good (id INT PRIMARY KEY, v VARCHAR(40))",
                        "CREATE TABLE " + db + ".bad (id INT PRIMARY KEY, v VARCHAR(40))",
                        "INSERT INTO " + db + ".good VALUES (1, 'g1'), (2, 'g2')",
                        "INSERT INTO " + db + ".bad VALUES (1, 'b1'), (2, 'b2'), (3, 'b3')");
        JdbcApplier applier = applier(target, db, lanes);
        Consumer consumer = consume(db, applier);
        awaitEqual(consumer, target, db, "bad");
        awaitEqual(consumer, target, db, "good");
        List<String> badBefore = targetRows(target, db, "bad");

        // The operator's target refuses some values of bad from now on.
        target.execute(
                "ALTER TABLE "
                        + target.table(db, "bad")
                        + " ADD CONSTRAINT no_refused CHECK (v NOT LIKE 'refused%')");
        try (Connection connection = SOURCE.server().connect();
                var statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            // One source transaction touching the healthy and the refused table.
            statement.execute("INSERT INTO " + db + ".good VALUES (3, 'g3')");
            statement.execute("INSERT INTO " + db + ".bad VALUES (10, 'refused-10')");
            statement.execute("UPDATE " + db + ".good SET v = 'g1-changed' WHERE id = 1");
            connection.commit();
            for (int i = 0; i < 20; i++) {
                statement.execute("INSERT INTO " + db + ".good VALUES (" + (100 + i) + ", 'x')");
                statement.execute("UPDATE " + db + ".bad SET v = 'b1-" + i + "' WHERE id = 1");
                connection.commit();
            }
            statement.execute("DELETE FROM " + db + ".bad WHERE id = 2");
            statement.execute("UPDATE " + db + ".bad SET id = 30 WHERE id = 3"); // key change
            statement.execute("INSERT INTO " + db + ".bad VALUES (11, 'refused-11')");
            statement.execute("DELETE FROM " + db + ".good WHERE id = 2");
            connection.commit();
        }
        awaitEqual(consumer, target, db, "good");
        assertThat(applier.parkedTables()).containsExactly(db + ".bad");
        assertThat(applier.tablesParked()).isEqualTo(1);
        if (lanes == 1) {
            assertThat(targetRows(target, db, "bad")).isEqualTo(badBefore);
        } else {
            // Keys in other lanes than the refused row's may have committed in the round that
            // parked the table: the table stops per key, each key's later changes recorded.
            assertThat(targetRows(target, db, "bad")).hasSize(badBefore.size());
        }
        assertThat(targetRows(target, db, "bad")).noneMatch(row -> row.contains("refused"));
        String where = " WHERE consumer_group = '" + db + "' AND table_name = '" + db + ".bad'";
        // 1 insert, 20 updates, a delete, a key change (two parts), an insert; with two lanes the
        // lane of key 1 may have committed some updates in the round that parked the table.
        List<String> recorded;
        if (lanes == 1) {
            awaitRecorded(consumer, target, deadLetter, where, 25);
            recorded = recorded(target, deadLetter, where);
        } else {
            Pipeline.awaitUntil(
                    consumer,
                    () -> {
                        List<String> now = recorded(target, deadLetter, where);
                        return !now.isEmpty() && now.get(now.size() - 1).endsWith("/2/0 INSERT");
                    },
                    Duration.ofSeconds(30));
            recorded = recorded(target, deadLetter, where);
            assertThat(recorded.size()).isBetween(5, 25);
        }
        assertThat(recorded.get(0)).endsWith(" INSERT");
        assertThat(recorded.subList(recorded.size() - 4, recorded.size()))
                .extracting(row -> row.substring(row.indexOf('/')))
                .containsExactly("/0/0 DELETE", "/1/1 UPDATE", "/1/2 UPDATE", "/2/0 INSERT");
        assertThat(
                        target.count(
                                "SELECT count(*) FROM "
                                        + deadLetter
                                        + where
                                        + " AND operation = 'INSERT' AND event LIKE '%refused-10%'"))
                .isEqualTo(1);
        assertThat(
                        target.count(
                                "SELECT count(*) FROM "
                                        + parked
                                        + where
                                        + " AND error LIKE '%no_refused%'"))
                .isEqualTo(1);

        // A restart while parked: the table stays parked, nothing is recorded twice.
        consumer.stop();
        consumer.awaitTermination();
        applier.close();
        applier = applier(target, db, lanes);
        assertThat(applier.parkedTables()).containsExactly(db + ".bad");
        consumer = consume(db, applier);
        SOURCE.server().execute("UPDATE " + db + ".bad SET v = 'b1-last' WHERE id = 1");
        awaitRecorded(consumer, target, deadLetter, where, recorded.size() + 1);

        // The operator fixes the target and asks for the table back.
        target.execute(
                "ALTER TABLE " + target.table(db, "bad") + " DROP CONSTRAINT no_refused",
                "UPDATE " + parked + " SET resume_requested = TRUE" + where);
        SOURCE.server().execute("INSERT INTO " + db + ".good VALUES (200, 'after-resume')");
        JdbcApplier resumed = applier;
        Pipeline.awaitUntil(
                consumer, () -> resumed.parkedTables().isEmpty(), Duration.ofSeconds(30));
        SOURCE.server().execute("INSERT INTO " + db + ".bad VALUES (12, 'after-resume')");
        awaitEqual(consumer, target, db, "bad");
        awaitEqual(consumer, target, db, "good");
        assertThat(target.count("SELECT count(*) FROM " + deadLetter + where)).isZero();
        assertThat(target.count("SELECT count(*) FROM " + parked + where)).isZero();
        assertThat(resumed.changesReplayed()).isEqualTo(recorded.size() + 1);
    }
}
