package io.changegrid.consumer.group.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.group.zookeeper.SessionExpiry;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Relay discovery on a real ZooKeeper: nodes written as relays write them, watched. */
class RelayDirectoryIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final Duration SESSION = Duration.ofSeconds(4);

    private static void register(ZooKeeperSession zooKeeper, int source, int port)
            throws Exception {
        zooKeeper.createPath(RelayRegistration.sourcePath(source));
        byte[] data =
                ("{\"sourceId\":"
                                + source
                                + ",\"endpoint\":\"http://127.0.0.1:"
                                + port
                                + "\",\"selects\":[{\"include\":[\"*.*\"],\"where\":false,"
                                + "\"renames\":false}]}")
                        .getBytes(StandardCharsets.UTF_8);
        zooKeeper.call(
                zk ->
                        zk.create(
                                RelayRegistration.sourcePath(source) + "/127.0.0.1_" + port,
                                data,
                                ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                CreateMode.EPHEMERAL));
    }

    private static List<String> endpoints(List<RelayRegistration> relays) {
        return relays.stream().map(RelayRegistration::endpoint).toList();
    }

    @Test
    void shouldFollowRelaysAsTheyRegisterAndGoWhenTheirSourceHadNoneAtStart() throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        List<List<String>> seen = new CopyOnWriteArrayList<>();
        ZooKeeperSession relayOne = ZooKeeperSession.open(connect, SESSION);
        try (ZooKeeperSession consumerSide = ZooKeeperSession.open(connect, SESSION);
                ZooKeeperSession relayTwo = ZooKeeperSession.open(connect, SESSION);
                RelayDirectory directory =
                        new RelayDirectory(
                                consumerSide, 3, relays -> seen.add(endpoints(relays)))) {
            directory.start();
            assertThat(directory.relays()).isEmpty();

            register(relayOne, 3, 7001);
            register(relayTwo, 3, 7002);
            register(relayTwo, 4, 7003); // another source's relay

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> directory.relays().size() == 2);
            assertThat(endpoints(directory.relays()))
                    .containsExactly("http://127.0.0.1:7001", "http://127.0.0.1:7002");

            relayOne.close(); // its ephemeral node goes with its session

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> directory.relays().size() == 1);
            assertThat(seen.get(seen.size() - 1)).containsExactly("http://127.0.0.1:7002");
        } finally {
            relayOne.close();
        }
    }

    @Test
    void shouldSeeChangesAgainWhenItsOwnSessionExpired() throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        try (ZooKeeperSession consumerSide = ZooKeeperSession.open(connect, SESSION);
                ZooKeeperSession relay = ZooKeeperSession.open(connect, SESSION);
                RelayDirectory directory = new RelayDirectory(consumerSide, 5, relays -> {})) {
            register(relay, 5, 7101);
            directory.start();
            assertThat(directory.relays()).hasSize(1);

            SessionExpiry.expire(consumerSide);
            register(relay, 5, 7102);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> directory.relays().size() == 2);
        }
    }
}
