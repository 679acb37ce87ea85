package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relays' timeline kept in the target's checkpoint table (docs/consumer.md, "When the source
 * server changes"): an applier consuming a {@code source.resume: gtid} relay saves {@code
 * mariadb-gtid:domain=0} on its lanes' rows, and restarted on a relay resuming by binlog position
 * (another timeline, whose SCNs name other transactions) its consumer stops with both timelines
 * named, before applying anything. The relay's and the consumer's status name the timeline.
 */
class TargetTimelineIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir static Path relayState;

    private static Relay gtidRelay;
    private static Relay positionRelay;

    @BeforeAll
    static void startRelays() throws Exception {
        gtidRelay =
                Pipeline.startRelay(
                        SOURCE.server(),
                        relayState.resolve("gtid"),
                        9_841,
                        Map.of("source.resume", "gtid"));
        positionRelay = Pipeline.startRelay(SOURCE.server(), relayState.resolve("position"), 9_842);
    }

    @AfterAll
    static void stopRelays() {
        for (Relay relay : new Relay[] {gtidRelay, positionRelay}) {
            if (relay != null) {
                relay.close();
            }
        }
    }

    @ParameterizedTest(name = "target={0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldRefuseARelayOfAnotherTimelineWhenRestartedFromTheTargetCheckpoint(String name)
            throws Exception {
        Target target =
                "postgres".equals(name)
                        ? Target.of(POSTGRES.database())
                        : Target.of(MARIADB_TARGET.server());
        String db = "timeline_" + name;
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                        "INSERT INTO " + db + ".t VALUES (1, 'one')");

        String saved =
                "SELECT max(timeline) FROM "
                        + target.table(
                                "postgres".equals(name) ? "public" : "changegrid",
                                "changegrid_checkpoint")
                        + " WHERE consumer_group = '"
                        + db
                        + "'";
        try (JdbcApplier applier = applier(target, db)) {
            CheckpointStore store = applier.checkpointStore();
            try (Consumer consumer = Pipeline.consume(gtidRelay, db, applier, store, 10)) {
                Pipeline.awaitUntil(
                        consumer,
                        () ->
                                count(target, "SELECT count(*) FROM " + target.table(db, "t")) == 1
                                        && "mariadb-gtid:domain=0".equals(text(target, saved)),
                        Duration.ofSeconds(30));
                assertThat(consumer.status().timeline()).isEqualTo("mariadb-gtid:domain=0");
                assertThat(gtidRelay.status().timeline()).isEqualTo("mariadb-gtid:domain=0");
            }
            assertThat(store.loadTimeline()).hasValue("mariadb-gtid:domain=0");
        }
        SOURCE.server().execute("INSERT INTO " + db + ".t VALUES (2, 'two')");

        try (JdbcApplier applier = applier(target, db);
                Consumer consumer =
                        Pipeline.consume(
                                positionRelay, db, applier, applier.checkpointStore(), 10)) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.state() == ConsumerState.FAILED);
            assertThat(consumer.failure().orElseThrow().getMessage())
                    .contains("relay serves another timeline than the checkpoint's")
                    .contains("relayTimeline=binlog:")
                    .contains("checkpointTimeline=mariadb-gtid:domain=0");
            assertThat(consumer.status().timeline()).isEqualTo("mariadb-gtid:domain=0");
        }
        assertThat(text(target, saved)).isEqualTo("mariadb-gtid:domain=0");
        assertThat(count(target, "SELECT count(*) FROM " + target.table(db, "t")))
                .as("nothing applied from the other timeline")
                .isEqualTo(1);
    }

    private static JdbcApplier applier(Target target, String group) throws SQLException {
        return JdbcApplier.open(
                ApplierOptions.builder(target.url())
                        .credentials(target.user(), target.password())
                        .consumerGroup(group)
                        .build());
    }

    private static String text(Target target, String sql) {
        try (Connection connection = target.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            return null; // the table is created when the applier opens
        }
    }

    private static long count(Target target, String sql) {
        try (Connection connection = target.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            return -1; // the table is created by the first apply
        }
    }
}
