package io.changegrid.consumer.group.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The protocol module's {@link ZooKeeperSession} against a real server, tested here where the
 * embedded ZooKeeper of the test kit is at hand (the protocol module has no test kit).
 */
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
    void shouldTellEverySessionListenersOfTheCurrentSessionAndOfEachNewOne() throws Exception {
        try (ZooKeeperSession session =
                ZooKeeperSession.start(
                        ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4))) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> session.sessionId() != 0);
            long firstSession = session.sessionId();
            AtomicInteger sessions = new AtomicInteger();
            session.onEverySession(sessions::incrementAndGet);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () ->
                                    assertThat(sessions)
                                            .as("added late, told of the session already there")
                                            .hasValue(1));

            SessionExpiry.expire(session);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(sessions).hasValue(2));
            assertThat(session.sessionId()).isNotIn(0L, firstSession);
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
