package io.changegrid.consumer.group.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ZooKeeperSessionIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @Test
    void shouldOpenANewSessionAndTellListenersWhenTheSessionExpires() throws Exception {
        try (ZooKeeperSession session =
                ZooKeeperSession.open(
                        ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4))) {
            CountDownLatch renewed = new CountDownLatch(1);
            session.onNewSession(renewed::countDown);
            session.call(
                    zk ->
                            zk.create(
                                    "/expiry",
                                    "before".getBytes(StandardCharsets.UTF_8),
                                    ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                    CreateMode.PERSISTENT));
            long firstSession = session.call(ZooKeeper::getSessionId);

            SessionExpiry.expire(session);

            assertThat(renewed.await(20, TimeUnit.SECONDS))
                    .as("listeners are told about the new session")
                    .isTrue();
            byte[] data = session.call(zk -> zk.getData("/expiry", false, null));
            assertThat(new String(data, StandardCharsets.UTF_8)).isEqualTo("before");
            assertThat(session.call(ZooKeeper::getSessionId)).isNotEqualTo(firstSession);
        }
    }

    @Test
    void shouldCreateEveryMissingParentWhenAPathIsCreated() throws Exception {
        try (ZooKeeperSession session =
                ZooKeeperSession.open(
                        ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4))) {
            session.createPath("/a/b/c");
            session.createPath("/a/b/c");

            Stat created = session.call(zk -> zk.exists("/a/b/c", false));
            assertThat(created).isNotNull();
        }
    }
}
