package io.changegrid.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.checkpoint.PartitionCheckpoint;
import io.changegrid.consumer.cluster.GroupAssignment;
import java.nio.file.Files;
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
 * A consumer frozen past its session timeout ({@code kill -STOP}, as in a long GC pause) loses its
 * partitions to the others; when it runs again ({@code kill -CONT}) it is fenced: its checkpoint
 * saves under the old epochs are refused, so it commits nothing after losing ownership, and the
 * rows it handled without committing are the only ones delivered twice.
 */
class ConsumerGroupFencingIT {

    private static final int ROWS = 2_500;
    private static final Duration SESSION = Duration.ofSeconds(5);
    private static LocalClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                LocalClusterFixture.start(
                        Path.of("target", "it-clusters", "fencing"), 3, 12, SESSION);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldCommitNothingAfterLosingItsPartitionsWhenAPausedConsumerResumes() throws Exception {
        List<Integer> taken;
        Map<Integer, PartitionCheckpoint> atPause = new HashMap<>();
        Map<Integer, Long> newEpochs = new HashMap<>();
        try (RowLoad load = RowLoad.start(cluster.source(), ROWS, 100)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.committed() > 300);
            taken = cluster.assignment().partitionsByMember().get("c2");
            assertThat(taken).hasSize(4);

            cluster.pause("c2");
            for (int partition : taken) {
                atPause.put(partition, cluster.checkpoint(partition));
            }
            // The others take over and commit under larger epochs while c2 is frozen.
            Awaitility.await()
                    .atMost(SESSION.plusSeconds(20))
                    .untilAsserted(
                            () -> {
                                GroupAssignment now = cluster.assignment();
                                for (int partition : taken) {
                                    assertThat(now.owners().get(partition))
                                            .isNotNull()
                                            .isNotEqualTo("c2");
                                    PartitionCheckpoint node = cluster.checkpoint(partition);
                                    assertThat(node.epoch())
                                            .isGreaterThan(atPause.get(partition).epoch());
                                    assertThat(node.scn())
                                            .isGreaterThan(atPause.get(partition).scn());
                                }
                            });
            for (int partition : taken) {
                newEpochs.put(partition, cluster.checkpoint(partition).epoch());
            }

            cluster.resume("c2");

            // From now on c2 may only ever write under an epoch it claims anew after rejoining.
            Awaitility.await()
                    .during(SESSION.plusSeconds(1))
                    .atMost(SESSION.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(
                            () -> {
                                for (int partition : taken) {
                                    PartitionCheckpoint node = cluster.checkpoint(partition);
                                    if (node.owner().equals("c2")
                                            && node.epoch() <= newEpochs.get(partition)) {
                                        return false;
                                    }
                                }
                                return true;
                            });
            load.awaitDone(60);
        }
        String log = Files.readString(cluster.directory().log("c2"));
        assertThat(log)
                .as("c2 tried to commit after resuming and was refused")
                .contains("checkpoint fenced, the partition has a newer owner");

        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                new Deliveries(cluster.written(RowLoad.TABLE)).insertedIds().size()
                                        == ROWS);
        Deliveries deliveries = new Deliveries(cluster.written(RowLoad.TABLE));
        for (List<LocalClusterFixture.Written> copies : deliveries.duplicates()) {
            LocalClusterFixture.Written first = copies.get(0);
            assertThat(taken)
                    .as("only the paused member's partitions deliver twice: %s", copies)
                    .contains(first.partition());
            assertThat(first.scn())
                    .as("only after the paused member's last checkpoint: %s", copies)
                    .isGreaterThan(atPause.get(first.partition()).scn());
        }
        System.out.printf(
                "events delivered twice around the pause: %d of %d%n",
                deliveries.duplicates().size(), deliveries.distinctEvents());
    }
}
