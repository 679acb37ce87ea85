package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A member whose ZooKeeper connection is gone shows its partitions as SUSPENDED — running, but
 * handing nothing to callbacks while ownership is in doubt — instead of RUNNING — and its status
 * answers throughout the outage.
 */
class GroupConsumerSuspendedIT {

    @Test
    void shouldShowPartitionsSuspendedWhenTheMembersZooKeeperConnectionIsLost() throws Exception {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        Map<String, Object> settings =
                Map.of(
                        "cluster.zookeeper",
                        zooKeeper.connectString(),
                        "cluster.group",
                        "suspended",
                        "cluster.instance",
                        "m0",
                        "cluster.sessionTimeout",
                        "30s",
                        "subscription.partitions",
                        2,
                        // Nobody answers there: the partitions' consumers run and retry.
                        "relays",
                        List.of("http://127.0.0.1:9"));
        try (GroupConsumer member =
                GroupConsumer.start(
                        PartitionConfigs.of(settings, List.of()),
                        assignment -> event -> CallbackResult.SUCCESS)) {
            awaitEveryPartition(member, PartitionState.RUNNING);

            zooKeeper.close();
            // Right after the outage begins the member may still believe itself connected; its
            // status must answer from what it knows, never wait for ZooKeeper to come back.
            assertTimeoutPreemptively(Duration.ofSeconds(10), member::status);

            awaitEveryPartition(member, PartitionState.SUSPENDED);

            // Leaving during the outage ends the member's ZooKeeper clients too (after Helix's
            // two 10-second waits for a reconnection, one per manager).
            assertTimeoutPreemptively(Duration.ofSeconds(60), member::close);
            String clientThreads = "SendThread(" + zooKeeper.connectString() + ")";
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () ->
                                    assertThat(Thread.getAllStackTraces().keySet())
                                            .noneMatch(
                                                    t ->
                                                            t.isAlive()
                                                                    && t.getName()
                                                                            .contains(
                                                                                    clientThreads)));
        } finally {
            zooKeeper.close();
        }
    }

    private static void awaitEveryPartition(GroupConsumer member, PartitionState state) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () ->
                                assertThat(member.status().partitions())
                                        .hasSize(2)
                                        .allMatch(p -> p.state() == state));
    }
}
