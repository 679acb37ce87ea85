package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.helix.NotificationContext;
import org.apache.helix.PropertyKey;
import org.apache.helix.api.listeners.LiveInstanceChangeListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A member's participant on a real ZooKeeper that goes away while Helix's event thread is busy.
 * Helix hands connection-state changes to listeners on the same single thread that runs its change
 * callbacks, and a callback reading ZooKeeper during an outage waits for the connection to come
 * back: the Disconnected event then waits behind it for as long as the outage lasts. The lease must
 * see the lost connection anyway, or the member goes on delivering past the moment its session may
 * have expired and its partitions moved.
 */
class LeasedParticipantIT {

    private static final Duration SESSION = Duration.ofSeconds(30);

    @Test
    void shouldStopHoldingWhenTheConnectionIsLostWhileHelixsEventThreadIsBusy() throws Exception {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        String cluster = GroupLayout.clusterName("busy");
        GroupClusterSetup.ensure(zooKeeper.connectString(), cluster, 1);
        LeasedParticipant participant =
                new LeasedParticipant(cluster, "m0", zooKeeper.connectString(), SESSION);
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            participant.connect();
            participant.lease().start();
            Ownership owned = participant.lease().ownership();
            assertThat(owned.isHeld()).isTrue();

            // A callback that, like Helix's own after a change, waits on ZooKeeper: it keeps the
            // event thread until released.
            LiveInstanceChangeListener stuck =
                    (liveInstances, context) -> {
                        if (context.getType() == NotificationContext.Type.CALLBACK) {
                            busy.countDown();
                            awaitQuietly(release);
                        }
                    };
            participant.addLiveInstanceChangeListener(stuck);
            addLiveInstance(zooKeeper, participant, "intruder");
            assertThat(busy.await(30, TimeUnit.SECONDS)).as("event thread taken").isTrue();

            zooKeeper.close();

            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .untilAsserted(
                            () ->
                                    assertThat(owned.isHeld())
                                            .as("held with the connection lost")
                                            .isFalse());
        } finally {
            release.countDown();
            participant.lease().close();
            participant.disconnect();
            zooKeeper.close();
        }
    }

    private static void addLiveInstance(
            EmbeddedZooKeeper zooKeeper, LeasedParticipant participant, String name)
            throws Exception {
        PropertyKey liveInstance =
                participant.getHelixDataAccessor().keyBuilder().liveInstance(name);
        try (ZooKeeperSession session =
                ZooKeeperSession.open(zooKeeper.connectString(), Duration.ofSeconds(10))) {
            session.call(
                    zk ->
                            zk.create(
                                    liveInstance.getPath(),
                                    new byte[0],
                                    ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                    CreateMode.PERSISTENT));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
