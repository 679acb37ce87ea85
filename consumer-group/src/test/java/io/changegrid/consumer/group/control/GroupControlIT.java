package io.changegrid.consumer.group.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.group.GroupConsumer;
import io.changegrid.consumer.group.PartitionConfigs;
import io.changegrid.consumer.group.PartitionState;
import io.changegrid.consumer.group.PartitionStatus;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A running member obeys its group's control node: paused partitions show PAUSED and keep their
 * owner, resumed ones run again, and a reset is written by the owner under its epoch and then
 * acknowledged (removed from the node).
 */
class GroupControlIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @Test
    void shouldPauseResumeAndResetPartitionsWhenTheControlNodeAsks() throws Exception {
        String group = "controlled";
        Map<String, Object> settings =
                Map.of(
                        "cluster.zookeeper",
                        ZOOKEEPER.zooKeeper().connectString(),
                        "cluster.group",
                        group,
                        "cluster.instance",
                        "m0",
                        "subscription.partitions",
                        2,
                        // Nobody answers there: the partitions' consumers run and retry.
                        "relays",
                        List.of("http://127.0.0.1:9"));
        try (ZooKeeperSession session =
                        ZooKeeperSession.open(
                                ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(10));
                GroupConsumer member =
                        GroupConsumer.start(
                                PartitionConfigs.of(settings, List.of()),
                                assignment -> event -> CallbackResult.SUCCESS)) {
            GroupControls controls = new GroupControls(session, group);
            awaitStates(member, PartitionState.RUNNING, PartitionState.RUNNING);
            long epoch = member.status().partitions().get(1).epoch();

            controls.update(c -> c.withPartitionPaused(1, true));
            awaitStates(member, PartitionState.RUNNING, PartitionState.PAUSED);

            controls.update(c -> c.withGroupPaused(true));
            awaitStates(member, PartitionState.PAUSED, PartitionState.PAUSED);

            controls.update(c -> c.withGroupPaused(false).withPartitionPaused(1, false));
            awaitStates(member, PartitionState.RUNNING, PartitionState.RUNNING);

            controls.update(c -> c.withReset(1, 4242));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(controls.read().control().resets()).isEmpty());
            var checkpoint = new GroupCheckpoints(session, group).read(1).orElseThrow();
            assertThat(checkpoint.scn()).isEqualTo(4242);
            assertThat(checkpoint.epoch()).isEqualTo(epoch);
            assertThat(checkpoint.owner()).isEqualTo("m0");
            PartitionStatus restarted = member.status().partitions().get(1);
            assertThat(restarted.startScn()).isEqualTo(4242);
            assertThat(restarted.epoch()).isEqualTo(epoch);
        }
    }

    @Test
    void shouldStartPausedWhenAPausedPartitionMovesToANewMember() throws Exception {
        String group = "moved";
        try (ZooKeeperSession session =
                        ZooKeeperSession.open(
                                ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(10));
                GroupConsumer first = member(group, "m0")) {
            awaitStates(first, PartitionState.RUNNING, PartitionState.RUNNING);
            new GroupControls(session, group).update(c -> c.withGroupPaused(true));
            awaitStates(first, PartitionState.PAUSED, PartitionState.PAUSED);

            try (GroupConsumer second = member(group, "m1")) {
                // One partition moves to the new member, which starts it paused.
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .untilAsserted(
                                () ->
                                        assertThat(second.status().partitions())
                                                .singleElement()
                                                .extracting(PartitionStatus::state)
                                                .isEqualTo(PartitionState.PAUSED));
                assertThat(first.status().partitions())
                        .singleElement()
                        .extracting(PartitionStatus::state)
                        .isEqualTo(PartitionState.PAUSED);
            }
        }
    }

    private static GroupConsumer member(String group, String instance) throws Exception {
        return GroupConsumer.start(
                PartitionConfigs.of(
                        Map.of(
                                "cluster.zookeeper",
                                ZOOKEEPER.zooKeeper().connectString(),
                                "cluster.group",
                                group,
                                "cluster.instance",
                                instance,
                                "subscription.partitions",
                                2,
                                "relays",
                                List.of("http://127.0.0.1:9")),
                        List.of()),
                assignment -> event -> CallbackResult.SUCCESS);
    }

    private static void awaitStates(GroupConsumer member, PartitionState p0, PartitionState p1) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () ->
                                assertThat(member.status().partitions())
                                        .extracting(PartitionStatus::state)
                                        .containsExactly(p0, p1));
    }
}
