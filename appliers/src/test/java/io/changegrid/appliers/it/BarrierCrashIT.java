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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A barrier in the middle of a source transaction, then a kill -9 between the lanes' commits of
 * that transaction: one source transaction changes a hot key sixteen times, so the {@code event}
 * and {@code column:} routers move it between two lanes and every move is a barrier that commits
 * the earlier lane's part of the transaction. At the batch's end the lane that wrote the key's last
 * image commits, and the other lane's commit is held in the target (a trigger on its checkpoint row
 * waits for an advisory lock the test holds) while the test kills the applier's JVM. The restarted
 * applier must skip exactly what each lane committed: the lane that lost its last commit must not
 * replay its earlier image of the key over the later one.
 *
 * <p>The {@code cut_replica} case restarts on another relay of the source, one that captures only
 * the subscribed table, while the transaction also changed a table the first relay captures: the
 * two relays number the transaction's events differently, and the lanes' checkpoints must still
 * mean the same events.
 */
class BarrierCrashIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final int HOT = 1;
    private static final int CHANGES = 16;

    @TempDir static Path relayState;
    @TempDir Path work;

    @TempDir static Path seqOnlyRelayState;

    private static Relay relay;
    private static Relay seqOnlyRelay;

    @BeforeAll
    static void startRelays() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_806);
        seqOnlyRelay =
                Pipeline.startRelay(
                        SOURCE.server(),
                        seqOnlyRelayState,
                        9_807,
                        Map.of("capture.include", "cut_replica.seq"));
    }

    @AfterAll
    static void stopRelays() {
        if (relay != null) {
            relay.close();
        }
        if (seqOnlyRelay != null) {
            seqOnlyRelay.close();
        }
    }

    @ParameterizedTest(name = "apply.partitioner={1}, restart on another relay={3}")
    @CsvSource({
        "cut_event, event, 70001, false",
        "cut_column, column:customer, 70002, false",
        "cut_replica, event, 70003, true"
    })
    void shouldSkipExactlyWhatEachLaneCommittedWhenKilledBetweenLaneCommitsOfOneTransaction(
            String db, String partitioner, long lockKey, boolean otherRelay) throws Exception {
        Target target = Target.of(POSTGRES.database());
        target.execute(
                "CREATE SCHEMA " + db,
                "CREATE TABLE " + db + ".seq (k integer PRIMARY KEY, n integer, customer integer)");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE " + db + ".seq (k INT PRIMARY KEY, n INT, customer INT)",
                        "CREATE TABLE " + db + ".other (id INT PRIMARY KEY)",
                        "INSERT INTO "
                                + db
                                + ".seq VALUES (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)");
        Map<String, String> settings =
                Map.of(
                        "relays",
                        Pipeline.url(relay),
                        "subscription.tables",
                        db + ".seq",
                        "batch.maxTransactions",
                        "50",
                        "fetch.pollTimeout",
                        "1s",
                        "target.url",
                        target.url(),
                        "target.user",
                        target.user(),
                        "apply.consumerGroup",
                        db,
                        "apply.lanes",
                        "2",
                        "apply.partitioner",
                        partitioner);
        Path log = work.resolve("applier.log");
        List<Spec> columns =
                List.of(
                        Spec.of("k", Canon.TEXT),
                        Spec.of("n", Canon.TEXT),
                        Spec.of("customer", Canon.TEXT));

        JavaProcess first = ApplierJvm.start(settings, log);
        try (Connection holder = target.connect()) {
            awaitTarget(
                    first, target, () -> target.count("SELECT count(*) FROM " + db + ".seq") == 4);
            holdTheLaneThatDidNotWriteTheHotKey(target, db, lockKey);
            try (Statement lock = holder.createStatement()) {
                lock.execute("SELECT pg_advisory_lock(" + lockKey + ")");
            }
            // One source transaction: the hot key's image changes sixteen times (and its customer,
            // which column:customer routes by), so its changes move between the lanes.
            try (Connection source = SOURCE.server().connect();
                    Statement statement = source.createStatement()) {
                source.setAutoCommit(false);
                for (int n = 1; n <= CHANGES; n++) {
                    // Captured by the first relay only (not subscribed): shifts its numbering.
                    statement.execute("INSERT INTO " + db + ".other VALUES (" + n + ")");
                    statement.execute(
                            "UPDATE "
                                    + db
                                    + ".seq SET n = "
                                    + n
                                    + ", customer = "
                                    + n
                                    + " WHERE k = "
                                    + HOT);
                }
                statement.execute("UPDATE " + db + ".seq SET n = 1 WHERE k = 2");
                source.commit();
            }
            // The lane holding the key's last image has committed it; the other lane waits.
            awaitTarget(
                    first,
                    target,
                    () ->
                            target.count(
                                                    "SELECT count(*) FROM pg_locks WHERE locktype ="
                                                            + " 'advisory' AND NOT granted AND objid = "
                                                            + lockKey)
                                            == 1
                                    && target.count("SELECT n FROM " + db + ".seq WHERE k = " + HOT)
                                            == CHANGES);
            first.kill();
        } // closing the holder releases the lock: the held lane's transaction then dies unfinished
        assertThat(target.count("SELECT last_value FROM " + db + ".held")).isEqualTo(1);

        // A later transaction, to know when the restarted applier has caught up.
        SOURCE.server().execute("INSERT INTO " + db + ".seq VALUES (5, 1, 0)");
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = TableContents.rows(connection, db + ".seq", columns, false);
        }
        Map<String, String> restart = new java.util.HashMap<>(settings);
        if (otherRelay) {
            restart.put("relays", Pipeline.url(seqOnlyRelay));
        }
        try (JavaProcess second = ApplierJvm.start(restart, log)) {
            awaitTarget(
                    second,
                    target,
                    () ->
                            target.count("SELECT count(*) FROM " + db + ".seq WHERE k = 5") == 1
                                    && target.count(
                                                    "SELECT count(DISTINCT scn) FROM"
                                                            + " public.changegrid_checkpoint WHERE"
                                                            + " consumer_group = '"
                                                            + db
                                                            + "'")
                                            == 1);
            try (Connection connection = target.connect()) {
                List<String> applied = TableContents.rows(connection, db + ".seq", columns, true);
                assertThat(applied).as("target rows").isEqualTo(source);
                assertThat(TableContents.checksum(applied))
                        .isEqualTo(TableContents.checksum(source));
            }
            ApplierJvm.stopAsRequested(second);
        }
    }

    /**
     * The first checkpoint advance of {@code db}'s lanes after the hot key changed, by a lane whose
     * transaction did not write the hot key, waits for the advisory lock {@code lockKey}. The hot
     * key's writer marks its transaction with a transaction-local setting.
     */
    private static void holdTheLaneThatDidNotWriteTheHotKey(Target target, String db, long lockKey)
            throws SQLException {
        target.execute(
                "CREATE SEQUENCE " + db + ".held",
                "CREATE FUNCTION "
                        + db
                        + ".mark_hot() RETURNS trigger AS $$ BEGIN"
                        + " PERFORM set_config('cgtest.wrote_hot', 'yes', true); RETURN NEW;"
                        + " END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER mark_hot AFTER INSERT OR UPDATE ON "
                        + db
                        + ".seq FOR EACH ROW WHEN (NEW.k = "
                        + HOT
                        + ") EXECUTE FUNCTION "
                        + db
                        + ".mark_hot()",
                "CREATE FUNCTION "
                        + db
                        + ".hold_lane() RETURNS trigger AS $$ BEGIN"
                        + " IF current_setting('cgtest.wrote_hot', true) IS DISTINCT FROM 'yes' THEN"
                        + " IF EXISTS (SELECT 1 FROM "
                        + db
                        + ".seq WHERE k = "
                        + HOT
                        + " AND n >= 1) THEN"
                        + " IF nextval('"
                        + db
                        + ".held') = 1 THEN PERFORM pg_advisory_xact_lock_shared("
                        + lockKey
                        + "); END IF; END IF; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER hold_"
                        + db
                        + " BEFORE UPDATE ON public.changegrid_checkpoint FOR EACH ROW WHEN"
                        + " (NEW.consumer_group = '"
                        + db
                        + "' AND NEW.scn > OLD.scn) EXECUTE FUNCTION "
                        + db
                        + ".hold_lane()");
    }

    @FunctionalInterface
    private interface TargetCondition {
        boolean holds() throws SQLException;
    }

    private static void awaitTarget(JavaProcess applier, Target target, TargetCondition condition)
            throws Exception {
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !applier.isAlive() || condition.holds());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "target condition not met; checkpoints="
                            + checkpoints(target)
                            + "\nlog:\n"
                            + applier.logTail(),
                    e);
        }
        assertThat(applier.isAlive()).as("applier alive; log:\n%s", applier.logTail()).isTrue();
    }

    private static List<String> checkpoints(Target target) throws SQLException {
        try (Connection connection = target.connect()) {
            return TableContents.rows(
                    connection,
                    "public.changegrid_checkpoint",
                    List.of(
                            Spec.of("consumer_group", Canon.TEXT),
                            Spec.of("lane", Canon.TEXT),
                            Spec.of("scn", Canon.TEXT)),
                    true);
        }
    }
}
