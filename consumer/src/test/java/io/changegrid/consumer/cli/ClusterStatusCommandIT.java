package io.changegrid.consumer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.consumer.ConsumerMain;
import io.changegrid.consumer.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.cluster.ClusterMember;
import io.changegrid.consumer.cluster.ClusterView;
import io.changegrid.consumer.cluster.Ownership;
import io.changegrid.consumer.cluster.PartitionListener;
import io.changegrid.consumer.config.GroupConfig;
import io.changegrid.consumer.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/** {@code consumer cluster status} against a real ZooKeeper and two in-process members. */
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
        try (ZooKeeperSession session = ZooKeeperSession.open(connect, Duration.ofSeconds(4))) {
            GroupCheckpoints checkpoints = new GroupCheckpoints(session, "shown");
            List<ClusterMember> members = new ArrayList<>();
            try (ClusterView view = openWithMembers(connect, checkpoints, members)) {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> view.read().owners().size() == 4);

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
                for (JsonNode partition : report.path("partitionStates")) {
                    assertThat(partition.path("owner").asText()).isIn("a", "b");
                    assertThat(partition.path("epoch").asLong()).isPositive();
                    assertThat(partition.path("savedBy").asText())
                            .isEqualTo(partition.path("owner").asText());
                }
                String table =
                        run(new StringWriter(), "cluster", "status", "-z", connect, "-g", "shown");
                assertThat(table).contains("group shown: 4 partitions, assigning, leader ");
            } finally {
                members.forEach(ClusterMember::close);
            }
        }
    }

    /** Two members of group "shown", and a view of it. */
    private static ClusterView openWithMembers(
            String connect, GroupCheckpoints checkpoints, List<ClusterMember> members)
            throws Exception {
        members.add(join(connect, "a", checkpoints));
        members.add(join(connect, "b", checkpoints));
        return ClusterView.connect(connect, "shown");
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
}
