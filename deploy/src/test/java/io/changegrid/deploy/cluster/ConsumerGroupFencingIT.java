package io.changegrid.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.group.checkpoint.PartitionCheckpoint;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A consumer frozen past its session timeout ({@code kill -STOP}, as in a long GC pause) loses its
 * partitions to the others; when it runs again ({@code kill -CONT}) it hands its callbacks nothing
 * more under the old epochs (its session lease sees the pause at once) and commits nothing, the
 * checkpoint fence standing behind that; the rows it handled without committing are the only ones
 * delivered twice.
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
        Map<Integer, Long> pausedEpochs = new HashMap<>();
        Map<Integer, PartitionCheckpoint> lastUnderPausedEpoch;
        Map<Integer, Long> newEpochs = new HashMap<>();
        long committedBeforePause;
        try (RowLoad load = RowLoad.start(cluster.source(), ROWS, 100)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.committed() > 300);
            taken = cluster.assignment().partitionsByMember().get("c2");
            assertThat(taken).hasSize(4);
            for (int partition : taken) {
                pausedEpochs.put(partition, cluster.checkpoint(partition).epoch());
            }

            cluster.pause("c2");
            // Every row c2 could have pulled before it froze was committed by now (one insert may
            // be in flight).
            committedBeforePause = load.committed() + 1;
            // c2's last checkpoint of each partition, a save it had sent before freezing included:
            // followed until the others claim the partitions, which they may only once c2's session
            // expired.
            lastUnderPausedEpoch = cluster.lastCheckpointsUnder(pausedEpochs);
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
                                            .isGreaterThan(pausedEpochs.get(partition));
                                    assertThat(node.scn())
                                            .isGreaterThan(
                                                    lastUnderPausedEpoch.get(partition).scn());
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
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                new Deliveries(cluster.written(RowLoad.TABLE)).insertedIds().size()
                                        == ROWS);
        List<LocalClusterFixture.Written> written = cluster.written(RowLoad.TABLE);
        Deliveries deliveries = new Deliveries(written);
        for (List<LocalClusterFixture.Written> copies : deliveries.duplicates()) {
            LocalClusterFixture.Written first = copies.get(0);
            assertThat(taken)
                    .as("only the paused member's partitions deliver twice: %s", copies)
                    .contains(first.partition());
            assertThat(first.scn())
                    .as("only after the paused member's last checkpoint: %s", copies)
                    .isGreaterThan(lastUnderPausedEpoch.get(first.partition()).scn());
            assertThat(copies)
                    .extracting(LocalClusterFixture.Written::instance)
                    .as("the paused member delivered one of the copies: %s", copies)
                    .contains("c2");
        }
        String log = Files.readString(cluster.directory().log("c2"));
        assertThat(log)
                .as("on resuming, c2 stopped delivering before Helix told it anything")
                .contains("member stood still longer than a third of its session timeout");
        for (int partition : taken) {
            assertThat(log)
                    .as(
                            "delivery under the lost epoch never went on again: partition %d",
                            partition)
                    .doesNotContain(
                            "delivery goes on, the partition's ownership is confirmed: store="
                                    + "ZooKeeperCheckpointStore[/changegrid/groups/it/partitions/"
                                    + partition
                                    + ", epoch="
                                    + pausedEpochs.get(partition)
                                    + "]");
        }
        // A partition c2 lost and was not given back when it rejoined: whatever c2 wrote for it was
        // delivered under its old epoch, so nothing committed after it froze (which it could only
        // pull after thawing) may be among it.
        Set<Integer> givenBack = partitionsAssignedAfter(log, newEpochs);
        List<Integer> lost = taken.stream().filter(p -> !givenBack.contains(p)).toList();
        for (LocalClusterFixture.Written event : written) {
            if (event.instance().equals("c2") && lost.contains(event.partition())) {
                assertThat(event.id())
                        .as("c2 handed nothing pulled after thawing to its callback: %s", event)
                        .isLessThanOrEqualTo(committedBeforePause);
            }
        }
        System.out.printf(
                "events delivered twice around the pause: %d of %d; partitions lost for good: %s%n",
                deliveries.duplicates().size(), deliveries.distinctEvents(), lost);
    }

    /** The partitions a member's log shows it was assigned under an epoch above those given. */
    private static Set<Integer> partitionsAssignedAfter(String log, Map<Integer, Long> epochs) {
        Set<Integer> assigned = new TreeSet<>();
        Matcher line =
                Pattern.compile("partition assigned: partition=(\\d+), epoch=(\\d+)").matcher(log);
        while (line.find()) {
            int partition = Integer.parseInt(line.group(1));
            long epoch = Long.parseLong(line.group(2));
            if (epochs.containsKey(partition) && epoch > epochs.get(partition)) {
                assigned.add(partition);
            }
        }
        return assigned;
    }
}
