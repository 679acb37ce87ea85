package io.changegrid.relay.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.RelaySelection;
import io.changegrid.protocol.zookeeper.ZooKeeperCredentials;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Relay registrations made with the relays' ZooKeeper credentials, on a real ZooKeeper: a client
 * without them (none, or another principal's) can read a registration but cannot register a relay,
 * rewrite one or remove one; a relay with them can.
 */
class RegistrationAclIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final ZooKeeperCredentials RELAYS =
            new ZooKeeperCredentials("relays", "relay-secret-5b1e");
    private static final Duration SETTLE = Duration.ofSeconds(20);

    private static RelayRegistrar registrar;
    private static final RelayRegistration REGISTRATION = registration(7070);

    @BeforeAll
    static void register() {
        registrar =
                RelayRegistrar.start(
                        ZOOKEEPER.zooKeeper().connectString(),
                        Duration.ofSeconds(4),
                        REGISTRATION,
                        RELAYS);
        Awaitility.await().atMost(SETTLE).until(registrar::isRegistered);
    }

    @AfterAll
    static void unregister() {
        registrar.close();
    }

    private static RelayRegistration registration(int port) {
        return new RelayRegistration(
                7,
                "http://127.0.0.1:" + port,
                List.of("shop.*"),
                List.of(),
                -1,
                0,
                List.of(RelaySelection.EVERYTHING));
    }

    @Test
    void shouldRefuseARogueRelayWhenAClientHasNoCredentials() throws Exception {
        ZooKeeper rogue = connected(null);
        try {
            assertThat(
                            new String(
                                    rogue.getData(REGISTRATION.path(), false, null),
                                    StandardCharsets.UTF_8))
                    .as("registrations stay readable")
                    .contains("http://127.0.0.1:7070");
            assertThatThrownBy(
                            () ->
                                    rogue.create(
                                            REGISTRATION.sourcePath() + "/evil_6666",
                                            "{}".getBytes(StandardCharsets.UTF_8),
                                            ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                            CreateMode.EPHEMERAL))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> rogue.setData(REGISTRATION.path(), new byte[0], -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> rogue.delete(REGISTRATION.path(), -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        } finally {
            rogue.close();
        }
    }

    @Test
    void shouldRefuseARelayRegistrationWhenTheClientIsAnotherPrincipal() throws Exception {
        ZooKeeper group = connected(new ZooKeeperCredentials("shop-apply", "other"));
        try {
            assertThatThrownBy(() -> group.setData(REGISTRATION.path(), new byte[0], -1))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(
                            () ->
                                    group.create(
                                            REGISTRATION.sourcePath() + "/evil_6667",
                                            new byte[0],
                                            ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                            CreateMode.EPHEMERAL))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        } finally {
            group.close();
        }
    }

    @Test
    void shouldRegisterASecondRelayWhenItHoldsTheRelaysCredentials() throws Exception {
        RelayRegistration second = registration(7071);
        RelayRegistrar other =
                RelayRegistrar.start(
                        ZOOKEEPER.zooKeeper().connectString(),
                        Duration.ofSeconds(4),
                        second,
                        RELAYS);
        try {
            Awaitility.await().atMost(SETTLE).until(other::isRegistered);
            ZooKeeper reader = connected(null);
            try {
                assertThat(reader.getChildren(REGISTRATION.sourcePath(), false))
                        .contains("127.0.0.1_7070", "127.0.0.1_7071");
                assertThat(reader.getACL(second.path(), null))
                        .extracting(acl -> acl.getId().getScheme() + ":" + acl.getPerms())
                        .containsExactlyInAnyOrder(
                                "digest:" + ZooDefs.Perms.ALL, "world:" + ZooDefs.Perms.READ);
            } finally {
                reader.close();
            }
        } finally {
            other.close();
        }
    }

    private static ZooKeeper connected(ZooKeeperCredentials credentials) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        Watcher watcher =
                event -> {
                    if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                        connected.countDown();
                    }
                };
        ZooKeeper zooKeeper = new ZooKeeper(ZOOKEEPER.zooKeeper().connectString(), 4_000, watcher);
        if (credentials != null) {
            zooKeeper.addAuthInfo(
                    ZooKeeperCredentials.SCHEME,
                    (credentials.user() + ":" + credentials.password())
                            .getBytes(StandardCharsets.UTF_8));
        }
        assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
        return zooKeeper;
    }
}
