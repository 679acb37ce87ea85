package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.config.ApplierSettings;
import io.changegrid.appliers.group.PartitionAppliers;
import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.group.GroupConsumer;
import io.changegrid.consumer.group.PartitionConfigs;
import io.changegrid.consumer.group.PartitionState;
import io.changegrid.consumer.group.PartitionStatus;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.checkpoint.PartitionCheckpoint;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
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
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDBC applier as the callback of consumer group members (Helix on the real in-process
 * ZooKeeper), into the local PostgreSQL: members built as {@code ApplierMain} builds them ({@link
 * ApplierSettings#SCHEMA}, {@link PartitionAppliers#from}) apply their partitions into one target
 * and it ends equal to the source; a member whose ownership epoch is older than the one in the
 * target's checkpoint rows has its batch rolled back and writes nothing, and the partition's next
 * owner resumes from the target's checkpoint with nothing applied twice.
 */
class ApplierGroupIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @TempDir static Path relayState;

    private static Relay relay;
    private static ZooKeeperSession zooKeeper;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_806);
        zooKeeper =
                ZooKeeperSession.open(ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(5));
    }

    @AfterAll
    static void stop() {
        if (zooKeeper != null) {
            zooKeeper.close();
        }
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

    /** A member configured as {@code ApplierMain --set ...} would be, joined in this JVM. */
    private GroupConsumer member(
            String group, String instance, int partitions, int quorum, String tables)
            throws Exception {
        Target target = Target.of(POSTGRES.database());
        Map<String, Object> settings = new HashMap<>();
        settings.put("cluster.zookeeper", ZOOKEEPER.zooKeeper().connectString());
        settings.put("cluster.group", group);
        settings.put("cluster.instance", instance);
        settings.put("cluster.quorum", Integer.toString(quorum));
        settings.put("cluster.sessionTimeout", "5s");
        settings.put("subscription.tables", tables);
        settings.put("subscription.partitions", Integer.toString(partitions));
        settings.put("relays", Pipeline.url(relay));
        settings.put("batch.maxTransactions", "20");
        settings.put("fetch.pollTimeout", "1s");
        settings.put("callback.retryBackoff", "20ms");
        settings.put("target.url", target.url());
        settings.put("target.user", target.user());
        settings.put("apply.maxRows", "200");
        PartitionConfigs configs =
                PartitionConfigs.of(ApplierSettings.SCHEMA, settings, Map.of(), List.of());
        GroupConsumer member =
                GroupConsumer.start(configs, PartitionAppliers.from(configs.config()));
        closing.add(member);
        return member;
    }

    private static long seed() {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        return seed;
    }

    @Test
    void shouldEndEqualToTheSourceWhenTwoMembersApplyTheirPartitions() throws Exception {
        Target target = Target.of(POSTGRES.database());
        String database = "grp_pair";
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement()) {
            AllTypesWorkload.create(statement, database);
        }
        AllTypesWorkload workload = new AllTypesWorkload(database, seed(), false, false);
        try (Connection connection = SOURCE.server().connect()) {
            workload.run(connection, 100);
        }
        GroupConsumer first = member("pair", "m1", 4, 2, database + ".*");
        GroupConsumer second = member("pair", "m2", 4, 2, database + ".*");
        try (Connection connection = SOURCE.server().connect()) {
            workload.run(connection, 150); // while the members apply
        }
        awaitEqual(target, database, "alltypes", AllTypesWorkload.ALLTYPES);
        awaitEqual(target, database, "accounts", AllTypesWorkload.ACCOUNTS);
        awaitEqual(target, database, "blobs", AllTypesWorkload.BLOBS);

        assertThat(running(first)).hasSize(2);
        assertThat(running(second)).hasSize(2);
        GroupCheckpoints inZooKeeper = new GroupCheckpoints(zooKeeper, "pair");
        Map<Integer, long[]> rows = checkpointRows(target, "pair");
        assertThat(rows).containsOnlyKeys(0, 1, 2, 3);
        for (var row : rows.entrySet()) {
            long targetScn = row.getValue()[0];
            long targetEpoch = row.getValue()[1];
            PartitionCheckpoint node = inZooKeeper.read(row.getKey()).orElseThrow();
            assertThat(targetEpoch)
                    .as("partition %s: the owner's epoch is in the target", row.getKey())
                    .isEqualTo(node.epoch());
            assertThat(targetScn).as("partition %s: applied", row.getKey()).isPositive();
            assertThat(node.scn())
                    .as(
                            "partition %s: the target's rows are the one checkpoint, ZooKeeper"
                                    + " holds owner and epoch only",
                            row.getKey())
                    .isEqualTo(-1);
        }
    }

    @Test
    void shouldRejectTheBatchWhenTheMembersEpochIsOlderThanTheTargets() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE grp_fence",
                        "CREATE TABLE grp_fence.audit (id INT PRIMARY KEY, what VARCHAR(40))");
        target.execute(
                "CREATE SCHEMA grp_fence",
                "CREATE TABLE grp_fence.audit (id integer PRIMARY KEY, what varchar(40))",
                "CREATE TABLE grp_fence.replays (id integer)",
                "CREATE FUNCTION grp_fence.seen() RETURNS trigger AS $$ BEGIN INSERT INTO"
                        + " grp_fence.replays VALUES (OLD.id); RETURN NEW; END $$ LANGUAGE plpgsql",
                // The source only inserts: any UPDATE of an audit row is a second apply.
                "CREATE TRIGGER twice BEFORE UPDATE ON grp_fence.audit FOR EACH ROW EXECUTE"
                        + " FUNCTION grp_fence.seen()");
        insertAudit(1, 20);
        GroupConsumer stale = member("fence", "m1", 1, 1, "grp_fence.*");
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> safeCount(target, "SELECT count(*) FROM grp_fence.audit") == 20);
        long staleEpoch = running(stale).get(0).epoch();
        long scnBefore = checkpointRows(target, "fence").get(0)[0];

        // A new owner claims the partition (its member paused past the session, say) and opens
        // its applier, which stamps the newer epoch on the partition's checkpoint rows.
        long newEpoch = new GroupCheckpoints(zooKeeper, "fence").claim(0, "m-new");
        assertThat(newEpoch).isGreaterThan(staleEpoch);
        ApplierOptions newOwner =
                ApplierOptions.builder(target.url())
                        .credentials(target.user(), target.password())
                        .build()
                        .forPartition("fence", 0, () -> newEpoch);
        JdbcApplier.open(newOwner).close();

        insertAudit(21, 30);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                partition(stale, 0)
                                        .map(p -> p.state() != PartitionState.RUNNING)
                                        .orElse(false));
        PartitionStatus fenced = partition(stale, 0).orElseThrow();
        assertThat(fenced.error()).contains("fenced: a newer owner wrote the checkpoint");
        assertThat(fenced.error()).contains("epoch=" + staleEpoch);
        assertThat(target.count("SELECT count(*) FROM grp_fence.audit"))
                .as("the stale owner's batch wrote nothing")
                .isEqualTo(20);
        long[] row = checkpointRows(target, "fence").get(0);
        assertThat(row[0]).isEqualTo(scnBefore);
        assertThat(row[1]).isEqualTo(newEpoch);

        // The stale member goes; the next owner resumes from the target's checkpoint.
        stale.close();
        GroupConsumer next = member("fence", "m2", 1, 1, "grp_fence.*");
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> safeCount(target, "SELECT count(*) FROM grp_fence.audit") == 30);
        assertThat(running(next).get(0).epoch()).isGreaterThan(newEpoch);
        assertThat(target.count("SELECT count(*) FROM grp_fence.replays")).isZero();
    }

    private void insertAudit(int from, int to) throws SQLException {
        for (int i = from; i <= to; i++) {
            SOURCE.server()
                    .execute("INSERT INTO grp_fence.audit VALUES (" + i + ", 'event " + i + "')");
        }
    }

    /** The member's partitions once it owns some and all of them run. */
    private static List<PartitionStatus> running(GroupConsumer member) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                !member.status().partitions().isEmpty()
                                        && member.status().partitions().stream()
                                                .allMatch(
                                                        p -> p.state() == PartitionState.RUNNING));
        return member.status().partitions();
    }

    private static Optional<PartitionStatus> partition(GroupConsumer member, int partition) {
        return member.status().partitions().stream()
                .filter(p -> p.partition() == partition)
                .findFirst();
    }

    /** Partition to {lowest lane SCN, highest epoch} of a group's checkpoint rows. */
    private static Map<Integer, long[]> checkpointRows(Target target, String group)
            throws SQLException {
        Map<Integer, long[]> rows = new HashMap<>();
        try (Connection connection = target.connect();
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT partition_id, min(scn), max(epoch) FROM"
                                        + " changegrid_checkpoint WHERE consumer_group = '"
                                        + group
                                        + "' GROUP BY partition_id")) {
            while (result.next()) {
                rows.put(result.getInt(1), new long[] {result.getLong(2), result.getLong(3)});
            }
        }
        return rows;
    }

    private static void awaitEqual(Target target, String database, String table, List<Spec> columns)
            throws Exception {
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = TableContents.rows(connection, database + "." + table, columns, false);
        }
        List<List<String>> last = new ArrayList<>(List.of(List.of()));
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            try (Connection connection = target.connect()) {
                                last.set(
                                        0,
                                        TableContents.rows(
                                                connection,
                                                target.table(database, table),
                                                columns,
                                                true));
                                return last.get(0).equals(source);
                            } catch (SQLException e) {
                                return false; // the table may not exist yet
                            }
                        });
        assertThat(TableContents.checksum(last.get(0))).isEqualTo(TableContents.checksum(source));
    }

    private static long safeCount(Target target, String sql) {
        try {
            return target.count(sql);
        } catch (SQLException e) {
            return -1;
        }
    }
}
