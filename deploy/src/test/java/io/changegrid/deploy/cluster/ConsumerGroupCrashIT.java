package io.changegrid.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of one of three consumers mid-stream: its partitions move to the others within
 * the session timeout and a few seconds, each new owner resumes exactly at the dead one's last
 * checkpoint, every row arrives, and only what the dead owner had not checkpointed arrives twice.
 */
class ConsumerGroupCrashIT {

    private static final int ROWS = 2_000;
    private static final Duration SESSION = Duration.ofSeconds(5);
    private static LocalClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                LocalClusterFixture.start(
                        Path.of("target", "it-clusters", "crash"), 3, 12, SESSION);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldMoveTheDeadMembersPartitionsAndLoseNothingWhenAConsumerIsKilled() throws Exception {
        List<Integer> orphans;
        Map<Integer, Long> deadEpochs = new HashMap<>();
        Map<Integer, Long> lastCheckpoint = new HashMap<>();
        long flowingMillis;
        try (RowLoad load = RowLoad.start(cluster.source(), ROWS, 100)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.committed() > 400);
            orphans = cluster.assignment().partitionsByMember().get("c1");
            assertThat(orphans).hasSize(4);
            for (int partition : orphans) {
                deadEpochs.put(partition, cluster.checkpoint(partition).epoch());
            }

            long killed = System.nanoTime();
            cluster.kill("c1");
            // c1's last checkpoint of each partition: what the next owner must resume at. Read
            // until the next owner claims, so that a save c1 had sent before dying counts too.
            cluster.lastCheckpointsUnder(deadEpochs)
                    .forEach((partition, node) -> lastCheckpoint.put(partition, node.scn()));

            Awaitility.await()
                    .atMost(SESSION.plusSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> flowingElsewhere(orphans));
            flowingMillis = (System.nanoTime() - killed) / 1_000_000;
            load.awaitDone(60);
        }
        System.out.printf(
                "crash to partitions flowing again: %d ms (session timeout %d ms)%n",
                flowingMillis, SESSION.toMillis());
        assertThat(flowingMillis).isLessThan(SESSION.plusSeconds(10).toMillis());

        GroupAssignment after = cluster.assignment();
        for (int partition : orphans) {
            String owner = after.owners().get(partition);
            assertThat(cluster.partitionStatus(owner, partition).path("startScn").asLong())
                    .as("partition %d resumes at the dead owner's last checkpoint", partition)
                    .isEqualTo(lastCheckpoint.get(partition));
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                new Deliveries(cluster.written(RowLoad.TABLE)).insertedIds().size()
                                        == ROWS);
        Deliveries deliveries = new Deliveries(cluster.written(RowLoad.TABLE));
        for (List<LocalClusterFixture.Written> copies : deliveries.duplicates()) {
            LocalClusterFixture.Written first = copies.get(0);
            assertThat(orphans)
                    .as("only the dead member's partitions deliver twice: %s", copies)
                    .contains(first.partition());
            assertThat(first.scn())
                    .as("only after the dead member's last checkpoint: %s", copies)
                    .isGreaterThan(lastCheckpoint.get(first.partition()));
            assertThat(copies).extracting(LocalClusterFixture.Written::instance).contains("c1");
        }
        System.out.printf(
                "events delivered twice after the crash: %d of %d%n",
                deliveries.duplicates().size(), deliveries.distinctEvents());
    }

    /** Every partition has a live owner other than c1 that checkpointed past its start. */
    private static boolean flowingElsewhere(List<Integer> partitions) throws Exception {
        GroupAssignment now = cluster.assignment();
        for (int partition : partitions) {
            String owner = now.owners().get(partition);
            if (owner == null || owner.equals("c1")) {
                return false;
            }
            JsonNode status = cluster.partitionStatus(owner, partition);
            if (status == null
                    || !status.path("state").asText().equals("RUNNING")
                    || status.path("checkpointScn").asLong() <= status.path("startScn").asLong()) {
                return false;
            }
        }
        return true;
    }
}
