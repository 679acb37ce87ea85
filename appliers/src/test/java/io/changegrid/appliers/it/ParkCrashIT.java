package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parked table's changes survive {@code kill -9} of the applier process while they are recorded
 * and while they are replayed: the parked and the healthy table end equal to the source, and target
 * triggers see no change applied twice (the source only inserts, so any upsert meeting an existing
 * row is a repeat).
 */
class ParkCrashIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final String DB = "parkcrash";
    private static final int ROWS = 3_000;
    private static final List<Spec> COLUMNS =
            List.of(Spec.of("id", Canon.TEXT), Spec.of("v", Canon.TEXT));

    @TempDir static Path relayState;
    @TempDir Path work;

    private static Relay relay;

    @BeforeAll
    static void startRelay() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_812);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    private static long count(Target target, String sql) {
        try {
            return target.count(sql);
        } catch (SQLException e) {
            return -1;
        }
    }

    private static boolean equal(Target target, String table) throws SQLException {
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = TableContents.rows(connection, DB + "." + table, COLUMNS, false);
        }
        try (Connection connection = target.connect()) {
            return TableContents.rows(connection, DB + "." + table, COLUMNS, true).equals(source);
        }
    }

    @Test
    void shouldLoseAndRepeatNothingWhenTheApplierIsKilledWhileRecordingAndWhileReplaying()
            throws Exception {
        Target target = Target.of(POSTGRES.database());
        String deadLetter = "public.changegrid_checkpoint_dead_letter";
        String parked = "public.changegrid_checkpoint_parked";
        target.execute(
                "CREATE SCHEMA " + DB,
                "CREATE TABLE " + DB + ".replays (what text)",
                "CREATE FUNCTION "
                        + DB
                        + ".repeated() RETURNS trigger AS $$ BEGIN INSERT INTO "
                        + DB
                        + ".replays VALUES (TG_TABLE_NAME || ' ' || OLD.id); RETURN NEW; END $$"
                        + " LANGUAGE plpgsql",
                // Replay slowed down to about 2 ms a row, so a kill can land in the middle of it.
                "CREATE FUNCTION "
                        + DB
                        + ".slow() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(0.002); RETURN NEW;"
                        + " END $$ LANGUAGE plpgsql");
        for (String table : List.of("parked_t", "healthy")) {
            target.execute(
                    "CREATE TABLE " + DB + "." + table + " (id integer PRIMARY KEY, v integer)",
                    "CREATE TRIGGER repeated BEFORE UPDATE ON "
                            + DB
                            + "."
                            + table
                            + " FOR EACH ROW EXECUTE FUNCTION "
                            + DB
                            + ".repeated()");
        }
        target.execute(
                "ALTER TABLE " + DB + ".parked_t ADD CONSTRAINT positive CHECK (v >= 0)",
                "CREATE TRIGGER slow BEFORE INSERT ON "
                        + DB
                        + ".parked_t FOR EACH ROW EXECUTE FUNCTION "
                        + DB
                        + ".slow()");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + DB,
                        "CREATE TABLE " + DB + ".parked_t (id INT PRIMARY KEY, v INT)",
                        "CREATE TABLE " + DB + ".healthy (id INT PRIMARY KEY, v INT)",
                        "INSERT INTO " + DB + ".parked_t VALUES (0, -1)");
        Map<String, String> settings =
                Map.of(
                        "relays",
                        Pipeline.url(relay),
                        "subscription.tables",
                        DB + ".*",
                        "batch.maxTransactions",
                        "20",
                        "fetch.pollTimeout",
                        "1s",
                        "target.url",
                        target.url(),
                        "target.user",
                        target.user(),
                        "apply.consumerGroup",
                        DB,
                        "apply.lanes",
                        "2",
                        "apply.refusedRows",
                        "park");
        Path log = work.resolve("applier.log");
        String where =
                " WHERE consumer_group = '" + DB + "' AND table_name = '" + DB + ".parked_t'";

        // Killed while the parked table's changes are being recorded.
        JavaProcess first = ApplierJvm.start(settings, log);
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int i = 1; i <= ROWS; i++) {
                statement.execute("INSERT INTO " + DB + ".parked_t VALUES (" + i + ", " + i + ")");
                statement.execute("INSERT INTO " + DB + ".healthy VALUES (" + i + ", " + i + ")");
                if (i % 10 == 0) {
                    connection.commit();
                }
                if (i == ROWS / 2) {
                    Awaitility.await()
                            .atMost(Duration.ofSeconds(60))
                            .until(
                                    () ->
                                            !first.isAlive()
                                                    || count(
                                                                    target,
                                                                    "SELECT count(*) FROM "
                                                                            + deadLetter
                                                                            + where)
                                                            > 100);
                    assertThat(first.isAlive()).as("log:\n%s", first.logTail()).isTrue();
                    first.kill();
                }
            }
            connection.commit();
        }
        JavaProcess second = ApplierJvm.start(settings, log);
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(
                            () ->
                                    !second.isAlive()
                                            || (count(
                                                                            target,
                                                                            "SELECT count(*) FROM "
                                                                                    + deadLetter
                                                                                    + where)
                                                                    + count(
                                                                            target,
                                                                            "SELECT count(*) FROM "
                                                                                    + DB
                                                                                    + ".parked_t")
                                                            == ROWS + 1
                                                    && equal(target, "healthy")));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "applied="
                            + count(target, "SELECT count(*) FROM " + DB + ".parked_t")
                            + ", recorded="
                            + count(target, "SELECT count(*) FROM " + deadLetter + where)
                            + ", healthy="
                            + count(target, "SELECT count(*) FROM " + DB + ".healthy")
                            + ", log:\n"
                            + second.logTail(),
                    e);
        }
        assertThat(second.isAlive()).as("log:\n%s", second.logTail()).isTrue();
        // With two lanes, the lane that committed in the round that parked the table applied its
        // keys of it; every other change of the table is recorded, the refused row among them.
        long appliedBefore = count(target, "SELECT count(*) FROM " + DB + ".parked_t");
        assertThat(count(target, "SELECT count(*) FROM " + DB + ".parked_t WHERE v < 0")).isZero();

        // Killed while the recorded changes are being replayed.
        target.execute(
                "ALTER TABLE " + DB + ".parked_t DROP CONSTRAINT positive",
                "UPDATE " + parked + " SET resume_requested = TRUE" + where);
        SOURCE.server().execute("INSERT INTO " + DB + ".healthy VALUES (" + (ROWS + 1) + ", 0)");
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () ->
                                !second.isAlive()
                                        || count(target, "SELECT count(*) FROM " + DB + ".parked_t")
                                                > appliedBefore);
        second.kill();
        long leftRecorded = count(target, "SELECT count(*) FROM " + deadLetter + where);
        System.out.println("killed while replaying: recorded changes left=" + leftRecorded);
        assertThat(leftRecorded).as("killed mid-replay").isBetween(1L, (long) ROWS);

        try (JavaProcess third = ApplierJvm.start(settings, log)) {
            SOURCE.server()
                    .execute("INSERT INTO " + DB + ".healthy VALUES (" + (ROWS + 2) + ", 0)");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(
                            () ->
                                    !third.isAlive()
                                            || (count(
                                                                    target,
                                                                    "SELECT count(*) FROM "
                                                                            + parked
                                                                            + where)
                                                            == 0
                                                    && equal(target, "parked_t")
                                                    && equal(target, "healthy")));
            assertThat(third.isAlive()).as("log:\n%s", third.logTail()).isTrue();
        }
        assertThat(count(target, "SELECT count(*) FROM " + deadLetter + where)).isZero();
        assertThat(count(target, "SELECT count(*) FROM " + DB + ".replays")).isZero();
    }
}
