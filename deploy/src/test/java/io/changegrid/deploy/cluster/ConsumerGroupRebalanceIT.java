package io.changegrid.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three consumers of one group as separate JVMs share twelve partitions evenly; a fourth joining
 * mid-stream takes three, one from each, and the planned hand-over delivers nothing twice.
 */
class ConsumerGroupRebalanceIT {

    private static final int ROWS = 1_500;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LocalClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                LocalClusterFixture.start(
                        Path.of("target", "it-clusters", "rebalance"),
                        3,
                        12,
                        Duration.ofSeconds(5));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldSpreadEvenlyAndMoveOnlyTheNewcomersShareWhenAFourthConsumerJoins() throws Exception {
        SortedMap<String, List<Integer>> before = cluster.assignment().partitionsByMember();
        assertThat(before).containsOnlyKeys("c1", "c2", "c3");
        assertThat(before.values()).allMatch(owned -> owned.size() == 4);

        try (RowLoad load = RowLoad.start(cluster.source(), ROWS, 150)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.committed() > 300);
            assertOperatorSeesEveryPartitionRunningWithItsLag();

            cluster.addConsumer("c4");

            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () -> {
                                GroupAssignment now = cluster.assignment();
                                assertThat(now.owners()).hasSize(12);
                                assertThat(now.partitionsByMember().values())
                                        .hasSize(4)
                                        .allMatch(owned -> owned.size() == 3);
                            });
            SortedMap<String, List<Integer>> after = cluster.assignment().partitionsByMember();
            for (Map.Entry<String, List<Integer>> old : before.entrySet()) {
                assertThat(old.getValue())
                        .as("member %s only gives partitions up", old.getKey())
                        .containsAll(after.get(old.getKey()));
            }
            assertThat(after.get("c4")).as("the newcomer took one from each").hasSize(3);
            load.awaitDone(60);
        }

        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                new Deliveries(cluster.written(RowLoad.TABLE)).insertedIds().size()
                                        == ROWS);
        Deliveries deliveries = new Deliveries(cluster.written(RowLoad.TABLE));
        assertThat(deliveries.duplicates())
                .as(
                        "a planned move stops the old owner at its checkpoint before the new one starts")
                .isEmpty();
        assertThat(deliveries.distinctEvents()).isEqualTo(ROWS);
    }

    /**
     * {@code consumer cluster status} while rows flow: every partition's state and lag come from
     * its owner's status endpoint, in the JSON document and in the table.
     */
    private static void assertOperatorSeesEveryPartitionRunningWithItsLag() throws Exception {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> {
                            String output = cluster.clusterStatus("--json");
                            assertThat(output).startsWith("0\n");
                            JsonNode report = JSON.readTree(output.substring(2));
                            assertThat(report.path("partitionStates")).hasSize(12);
                            for (JsonNode partition : report.path("partitionStates")) {
                                assertThat(partition.path("state").asText())
                                        .as("partition %s", partition)
                                        .isEqualTo("RUNNING");
                                assertThat(partition.path("lagMillis").asLong(-1))
                                        .as("lag behind the source while rows flow: %s", partition)
                                        .isBetween(0L, 20_000L);
                            }
                        });
        // Read again: each line asks the partition's owner, which a busy machine answers late.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> {
                            String table = cluster.clusterStatus();
                            assertThat(table)
                                    .startsWith("0\ngroup it: 12 partitions, assigning, leader c");
                            assertThat(
                                            Pattern.compile(" RUNNING +\\d+ ms$", Pattern.MULTILINE)
                                                    .matcher(table)
                                                    .results())
                                    .as("a state and a lag on every partition's line:%n%s", table)
                                    .hasSize(12);
                        });
    }
}
