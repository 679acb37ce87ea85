package io.changegrid.consumer.group.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.group.ConsumerMain;
import io.changegrid.consumer.group.GroupConsumer;
import io.changegrid.consumer.group.PartitionConfigs;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.cluster.ClusterMember;
import io.changegrid.consumer.group.cluster.ClusterView;
import io.changegrid.consumer.group.cluster.Ownership;
import io.changegrid.consumer.group.cluster.PartitionListener;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * {@code consumer cluster status} against a real ZooKeeper and two in-process members, one of them
 * with a status endpoint for the state and lag columns.
 */
class ClusterStatusCommandIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final PartitionListener IDLE =
            new PartitionListener() {
                @Override
                public void onAssigned(int partition, long epoch, Ownership ownership) {}

                @Override
                public void onRevoked(int partition) {}
            };

    private static String run(StringWriter err, String... args) {
        StringWriter out = new StringWriter();
        CommandLine command =
                new CommandLine(new ConsumerMain())
                        .setOut(new PrintWriter(out))
                        .setErr(new PrintWriter(err));
        int status = command.execute(args);
        return status + "\n" + out;
    }

    @Test
    void shouldShowEveryPartitionsOwnerEpochAndCheckpointWhenAGroupRuns() throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        try (ZooKeeperSession session = ZooKeeperSession.open(connect, Duration.ofSeconds(4));
                ClusterMember a = join(connect, "a", new GroupCheckpoints(session, "shown"));
                GroupConsumer b = memberWithStatusEndpoint(connect, "b");
                ClusterView view = ClusterView.connect(connect, "shown")) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    a.isConnected()
                                            && ownedBy(view, "a") == 2
                                            && ownedBy(view, "b") == 2
                                            && b.status().partitions().size() == 2);

            String output =
                    run(
                            new StringWriter(),
                            "cluster",
                            "status",
                            "-z",
                            connect,
                            "-g",
                            "shown",
                            "--json");

            assertThat(output).startsWith("0\n");
            JsonNode report = new ObjectMapper().readTree(output.substring(2));
            assertThat(report.path("partitions").asInt()).isEqualTo(4);
            assertThat(report.path("assigning").asBoolean()).isTrue();
            assertThat(report.path("members")).hasSize(2);
            assertThat(report.path("partitionStates")).hasSize(4);
            for (JsonNode partition : report.path("partitionStates")) {
                assertThat(partition.path("owner").asText()).isIn("a", "b");
                assertThat(partition.path("epoch").asLong()).isPositive();
                assertThat(partition.path("savedBy").asText())
                        .isEqualTo(partition.path("owner").asText());
                if (partition.path("owner").asText().equals("b")) {
                    // From b's status endpoint: no relay of its source is registered.
                    assertThat(partition.path("state").asText()).isEqualTo("WAITING_FOR_RELAYS");
                    assertThat(partition.path("lagMillis").asLong()).as("not known").isEqualTo(-1);
                } else {
                    assertThat(partition.has("state")).as("a runs no status endpoint").isFalse();
                }
            }
            String table =
                    run(new StringWriter(), "cluster", "status", "-z", connect, "-g", "shown");
            assertThat(table).contains("group shown: 4 partitions, assigning, leader ");
            assertThat(table.lines().filter(line -> line.matches(" +\\d+  b .*")))
                    .as("b's partitions, with the state from its endpoint and no lag:%n%s", table)
                    .hasSize(2)
                    .allMatch(line -> line.matches(".* WAITING_FOR_RELAYS +-$"));
            assertThat(table.lines().filter(line -> line.matches(" +\\d+  a .*")))
                    .as("a's partitions, without state or lag:%n%s", table)
                    .hasSize(2)
                    .allMatch(line -> line.matches(".* - +-$"));
        }
    }

    /** A member of group "shown" with a status endpoint, waiting for relays that never come. */
    private static GroupConsumer memberWithStatusEndpoint(String connect, String name)
            throws Exception {
        Map<String, Object> settings = new HashMap<>();
        settings.put("cluster.zookeeper", connect);
        settings.put("cluster.group", "shown");
        settings.put("cluster.instance", name);
        settings.put("cluster.sessionTimeout", "4s");
        settings.put("cluster.relaySource", 77);
        settings.put("cluster.status.host", "127.0.0.1");
        settings.put("cluster.status.port", 0);
        settings.put("subscription.partitions", 4);
        return GroupConsumer.start(
                PartitionConfigs.of(settings, List.of()),
                assignment -> event -> CallbackResult.SUCCESS);
    }

    @Test
    void shouldSayTheGroupDoesNotExistWhenItWasNeverStarted() {
        StringWriter err = new StringWriter();

        String output =
                run(
                        err,
                        "cluster",
                        "status",
                        "-z",
                        ZOOKEEPER.zooKeeper().connectString(),
                        "-g",
                        "none");

        assertThat(output).startsWith("1\n");
        assertThat(err.toString()).contains("no such consumer group").contains("group=none");
    }

    @Test
    void shouldNameTheMissingGroupWhenAMemberIsConfiguredWithoutOne() {
        StringWriter err = new StringWriter();

        String output =
                run(err, "--set", "cluster.zookeeper=" + ZOOKEEPER.zooKeeper().connectString());

        assertThat(output).startsWith("2\n");
        assertThat(err.toString()).contains("missing required key: path=cluster.group");
    }

    private static ClusterMember join(String connect, String name, GroupCheckpoints checkpoints)
            throws Exception {
        return ClusterMember.join(
                new GroupConfig(
                        connect, "shown", name, 4, 1, Duration.ofSeconds(4), 1, "127.0.0.1", -1),
                null,
                partition -> checkpoints.claim(partition, name),
                IDLE);
    }

    /** How many partitions the view shows {@code member} owning. */
    private static long ownedBy(ClusterView view, String member) throws Exception {
        return view.read().owners().values().stream().filter(member::equals).count();
    }
}
