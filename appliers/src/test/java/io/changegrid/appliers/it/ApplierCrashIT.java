package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplyMode;
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
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The applier as its own process, killed with SIGKILL at random points while the source keeps
 * committing, again and again: the target still ends equal to the source, and nothing was applied
 * twice; with the statement path and with the staging-table path. Target triggers record every
 * second write of an insert-only audit row and every account update that does not raise the
 * account's version, i.e. every replay of an applied change.
 */
class ApplierCrashIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir static Path relayState;
    @TempDir Path work;

    private static Relay relay;

    @BeforeAll
    static void startRelay() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_804);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    /** The source database, target schema and consumer group of the running mode. */
    private String db;

    @ParameterizedTest(name = "apply.mode={0}")
    @EnumSource(ApplyMode.class)
    void shouldEndEqualWithNothingAppliedTwiceWhenTheApplierIsKilledRepeatedly(ApplyMode mode)
            throws Exception {
        db = "crash_" + mode.name().toLowerCase(java.util.Locale.ROOT);
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        Random random = new Random(seed);
        Target target = Target.of(POSTGRES.database());
        target.execute(
                "CREATE SCHEMA " + db,
                "CREATE TABLE "
                        + db
                        + ".accounts (id integer PRIMARY KEY, balance bigint, version integer)",
                "CREATE TABLE "
                        + db
                        + ".audit (id integer PRIMARY KEY, account integer, delta integer)",
                "CREATE TABLE " + db + ".replays (what text)",
                "CREATE FUNCTION "
                        + db
                        + ".audit_twice() RETURNS trigger AS $$ BEGIN INSERT INTO"
                        + " "
                        + db
                        + ".replays VALUES ('audit ' || OLD.id); RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER twice BEFORE UPDATE ON "
                        + db
                        + ".audit FOR EACH ROW EXECUTE FUNCTION"
                        + " "
                        + db
                        + ".audit_twice()",
                "CREATE FUNCTION "
                        + db
                        + ".not_newer() RETURNS trigger AS $$ BEGIN IF NEW.version <="
                        + " OLD.version THEN INSERT INTO "
                        + db
                        + ".replays VALUES ('account ' || OLD.id"
                        + " || ' version ' || OLD.version || ' -> ' || NEW.version); END IF; RETURN NEW;"
                        + " END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER not_newer BEFORE UPDATE ON "
                        + db
                        + ".accounts FOR EACH ROW EXECUTE"
                        + " FUNCTION "
                        + db
                        + ".not_newer()");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE "
                                + db
                                + ".accounts (id INT PRIMARY KEY, balance BIGINT, version INT)",
                        "CREATE TABLE "
                                + db
                                + ".audit (id INT PRIMARY KEY, account INT, delta INT)");
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicInteger committed = new AtomicInteger();
        AtomicReference<Throwable> loadFailure = new AtomicReference<>();
        Thread load =
                new Thread(
                        () -> load(new Random(seed + 1), loading, committed, loadFailure),
                        "source-load");
        load.start();

        Map<String, String> settings =
                Map.of(
                        "relays",
                        Pipeline.url(relay),
                        "subscription.tables",
                        db + ".*",
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
                        "apply.maxRows",
                        "300",
                        "apply.mode",
                        mode.name().toLowerCase(java.util.Locale.ROOT));
        Path log = work.resolve("applier.log");
        int kills = 6;
        for (int round = 0; round < kills; round++) {
            int before = appliedAudit(target);
            JavaProcess applier = ApplierJvm.start(settings, log);
            // Let it apply something first, then kill it wherever it is.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !applier.isAlive()
                                            || appliedAudit(target) > before
                                            || !load.isAlive());
            Awaitility.await().pollDelay(Duration.ofMillis(random.nextInt(800))).until(() -> true);
            assertThat(applier.isAlive())
                    .as("applier alive before kill; log:\n%s", applier.logTail())
                    .isTrue();
            applier.kill();
            System.out.println(
                    "killed applier: round="
                            + round
                            + ", audit rows applied="
                            + appliedAudit(target));
        }
        loading.set(false);
        load.join();
        assertThat(loadFailure.get()).isNull();

        try (JavaProcess applier = ApplierJvm.start(settings, log)) {
            List<Spec> accounts =
                    List.of(
                            Spec.of("id", Canon.TEXT),
                            Spec.of("balance", Canon.TEXT),
                            Spec.of("version", Canon.TEXT));
            List<Spec> audit =
                    List.of(
                            Spec.of("id", Canon.TEXT),
                            Spec.of("account", Canon.TEXT),
                            Spec.of("delta", Canon.TEXT));
            List<String> sourceAccounts;
            List<String> sourceAudit;
            try (Connection connection = SOURCE.server().connect()) {
                sourceAccounts = TableContents.rows(connection, db + ".accounts", accounts, false);
                sourceAudit = TableContents.rows(connection, db + ".audit", audit, false);
            }
            try {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(250))
                        .until(
                                () ->
                                        !applier.isAlive()
                                                || equal(
                                                        target,
                                                        audit,
                                                        sourceAudit,
                                                        accounts,
                                                        sourceAccounts));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(
                        "target not equal: sourceAudit="
                                + sourceAudit.size()
                                + ", missing="
                                + missingAudit(target, sourceAudit.size())
                                + ", checkpoints="
                                + checkpoints(target)
                                + ", relayNewest="
                                + relay.buffer().newestScn()
                                + ", targetAudit="
                                + appliedAudit(target)
                                + ", replays="
                                + replays(target)
                                + "\nlog:\n"
                                + applier.logTail(),
                        e);
            }
            assertThat(applier.isAlive())
                    .as("final applier alive; log:\n%s", applier.logTail())
                    .isTrue();
            try (Connection connection = target.connect()) {
                assertThat(
                                TableContents.checksum(
                                        TableContents.rows(
                                                connection, db + ".accounts", accounts, true)))
                        .isEqualTo(TableContents.checksum(sourceAccounts));
                assertThat(
                                TableContents.checksum(
                                        TableContents.rows(connection, db + ".audit", audit, true)))
                        .isEqualTo(TableContents.checksum(sourceAudit));
            }
            assertThat(sourceAudit).hasSize(committed.get());
            List<String> replays = replays(target);
            assertThat(replays).as("changes applied twice").isEmpty();
            System.out.println(
                    "source transactions=" + committed.get() + ", kills=" + kills + ", replays=0");
        }
    }

    private boolean equal(
            Target target,
            List<Spec> audit,
            List<String> sourceAudit,
            List<Spec> accounts,
            List<String> sourceAccounts)
            throws SQLException {
        try (Connection connection = target.connect()) {
            return TableContents.rows(connection, db + ".audit", audit, true).equals(sourceAudit)
                    && TableContents.rows(connection, db + ".accounts", accounts, true)
                            .equals(sourceAccounts);
        }
    }

    private List<String> missingAudit(Target target, int count) throws SQLException {
        List<String> missing = new java.util.ArrayList<>();
        try (Connection connection = target.connect();
                Statement statement = connection.createStatement();
                var rows =
                        statement.executeQuery(
                                "SELECT g FROM generate_series(1, "
                                        + count
                                        + ") g WHERE g NOT IN (SELECT id FROM "
                                        + db
                                        + ".audit) ORDER BY g LIMIT 40")) {
            while (rows.next()) {
                missing.add(rows.getString(1));
            }
        }
        return missing;
    }

    private List<String> checkpoints(Target target) throws SQLException {
        try (Connection connection = target.connect()) {
            return TableContents.rows(
                    connection,
                    "public.changegrid_checkpoint",
                    List.of(
                            Spec.of("lane", Canon.TEXT),
                            Spec.of("scn", Canon.TEXT),
                            Spec.of("epoch", Canon.TEXT)),
                    true);
        }
    }

    private List<String> replays(Target target) throws SQLException {
        try (Connection connection = target.connect()) {
            return TableContents.rows(
                    connection, db + ".replays", List.of(Spec.of("what", Canon.TEXT)), true);
        }
    }

    private int appliedAudit(Target target) {
        try {
            return (int) target.count("SELECT count(*) FROM " + db + ".audit");
        } catch (SQLException e) {
            return 0;
        }
    }

    /** Source transactions: one audit row and the account it moves; bounded in count. */
    private void load(
            Random random,
            AtomicBoolean loading,
            AtomicInteger committed,
            AtomicReference<Throwable> failure) {
        int accounts = 200;
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement()) {
            for (int id = 1; id <= accounts; id++) {
                statement.execute("INSERT INTO " + db + ".accounts VALUES (" + id + ", 0, 0)");
            }
            connection.setAutoCommit(false);
            for (int t = 1; loading.get() && t <= 200_000; t++) {
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    int account = 1 + random.nextInt(accounts);
                    int delta = random.nextInt(1000) - 500;
                    statement.execute(
                            "UPDATE "
                                    + db
                                    + ".accounts SET balance = balance + "
                                    + delta
                                    + ", version = version + 1 WHERE id = "
                                    + account);
                }
                statement.execute(
                        "INSERT INTO "
                                + db
                                + ".audit VALUES ("
                                + t
                                + ", "
                                + (1 + random.nextInt(accounts))
                                + ", "
                                + count
                                + ")");
                connection.commit();
                committed.set(t);
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }
}
