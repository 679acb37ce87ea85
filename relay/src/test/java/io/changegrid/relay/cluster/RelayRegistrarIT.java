package io.changegrid.relay.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.YamlConfigFile;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.RelaySelection;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay's registration on a real ZooKeeper: made (also when ZooKeeper comes up after the relay),
 * kept across a session expiry, removed.
 */
class RelayRegistrarIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final Duration SETTLE = Duration.ofSeconds(20);

    private ZooKeeper reader;

    @BeforeEach
    void connect() throws Exception {
        reader = connected(ZOOKEEPER.zooKeeper().connectString(), 0, null);
    }

    @AfterEach
    void disconnect() throws Exception {
        reader.close();
    }

    private static RelayRegistration registration(int source, int port) {
        return new RelayRegistration(
                source,
                "http://127.0.0.1:" + port,
                List.of("shop.*"),
                List.of("shop.audit"),
                -1,
                0,
                List.of(RelaySelection.EVERYTHING));
    }

    private String read(String path) throws Exception {
        Stat stat = reader.exists(path, false);
        return stat == null
                ? null
                : new String(reader.getData(path, false, null), StandardCharsets.UTF_8);
    }

    @Test
    void shouldRegisterSourceEndpointAndTablesWhileRunningAndVanishWhenClosed() throws Exception {
        RelayRegistration registration = registration(7, 7070);
        RelayRegistrar registrar =
                RelayRegistrar.start(
                        ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4), registration);
        try {
            Awaitility.await().atMost(SETTLE).until(registrar::isRegistered);

            assertThat(registration.path()).isEqualTo("/changegrid/relays/7/127.0.0.1_7070");
            assertThat(read(registration.path()))
                    .isEqualTo(
                            "{\"sourceId\":7,\"endpoint\":\"http://127.0.0.1:7070\","
                                    + "\"include\":[\"shop.*\"],\"exclude\":[\"shop.audit\"],\"partition\":-1,"
                                    + "\"partitions\":0,\"selects\":[{\"include\":[\"*.*\"],"
                                    + "\"exclude\":[],\"where\":false,\"renames\":false,"
                                    + "\"partitioner\":null}]}");
        } finally {
            registrar.close();
        }
        assertThat(read(registration.path())).isNull();
    }

    @Test
    void
            shouldRegisterItsPartitionItsPartitionersAndWhatItsPoliciesSelectWhenTheRelaySplitsTheSource()
                    throws Exception {
        RelayConfiguration configuration =
                RelayConfiguration.load(
                        new LinkedHashMap<>(
                                YamlConfigFile.parse(
                                        """
                                        policies:
                                          - include: [shop.orders]
                                            where: "total > 0"
                                            partition: {byColumn: {column: tenant, partitions: 4, values: {7: 1, 3: 0}}}
                                          - include: [shop.*]
                                            exclude: [shop.tmp_*]
                                            partition: {byKeyHash: {partitions: 4}}
                                        """,
                                        "test")),
                        Map.of(
                                "source.id", "10",
                                "source.host", "db",
                                "source.user", "relay",
                                "capture.partition", "2",
                                "cluster.zookeeper", ZOOKEEPER.zooKeeper().connectString(),
                                "cluster.sessionTimeout", "4s",
                                "cluster.advertisedUrl", "http://127.0.0.1:7073"));
        try (RelayRegistrar registrar = RelayRegistrar.forRelay(configuration, 7073)) {
            Awaitility.await().atMost(SETTLE).until(registrar::isRegistered);

            assertThat(read("/changegrid/relays/10/127.0.0.1_7073"))
                    .contains(
                            "\"partition\":2,\"partitions\":4,\"selects\":["
                                    + "{\"include\":[\"shop.orders\"],\"exclude\":[],"
                                    + "\"where\":true,\"renames\":false,\"partitioner\":"
                                    + "\"byColumn(column=\\\"tenant\\\",partitions=4,"
                                    + "values={\\\"3\\\":0,\\\"7\\\":1})\"},"
                                    + "{\"include\":[\"shop.*\"],\"exclude\":[\"shop.tmp_*\"],"
                                    + "\"where\":false,\"renames\":false,"
                                    + "\"partitioner\":\"byKeyHash(partitions=4)\"}]");
        }
    }

    @Test
    void shouldRegisterAgainWhenTheSessionExpires() throws Exception {
        RelayRegistration registration = registration(8, 7071);
        try (RelayRegistrar registrar =
                RelayRegistrar.start(
                        ZOOKEEPER.zooKeeper().connectString(),
                        Duration.ofSeconds(4),
                        registration)) {
            Awaitility.await().atMost(SETTLE).until(registrar::isRegistered);
            Stat first = reader.exists(registration.path(), false);

            // Expire the session as a server does after a pause: attach to it elsewhere, close it.
            ZooKeeperSession session = registrar.session();
            connected(
                            ZOOKEEPER.zooKeeper().connectString(),
                            session.call(ZooKeeper::getSessionId),
                            session.call(ZooKeeper::getSessionPasswd))
                    .close();

            Awaitility.await()
                    .atMost(SETTLE)
                    .untilAsserted(
                            () -> {
                                Stat now = reader.exists(registration.path(), false);
                                assertThat(now).isNotNull();
                                assertThat(now.getEphemeralOwner())
                                        .isNotEqualTo(first.getEphemeralOwner());
                            });
        }
    }

    @Test
    void shouldStartWhileZooKeeperIsDownAndRegisterOnceItComesUp(@TempDir Path dataDir)
            throws Exception {
        RelayRegistration registration = registration(12, 7075);
        int port = FreePort.pick();
        String connectString = FreePort.HOST + ":" + port;
        long started = System.nanoTime();
        RelayRegistrar registrar =
                RelayRegistrar.start(connectString, Duration.ofSeconds(4), registration);
        ServerCnxnFactory connections = null;
        try {
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("starting does not wait for ZooKeeper")
                    .isLessThan(Duration.ofSeconds(2));
            assertThat(registrar.isRegistered()).isFalse();

            // A server of its own on the port the registrar was given, started only now.
            connections =
                    ServerCnxnFactory.createFactory(new InetSocketAddress(FreePort.HOST, port), 10);
            connections.startup(new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), 500));

            Awaitility.await().atMost(SETTLE).until(registrar::isRegistered);
            ZooKeeper late = connected(connectString, 0, null);
            try {
                assertThat(late.exists(registration.path(), false)).isNotNull();
            } finally {
                late.close();
            }
        } finally {
            registrar.close(); // before the server stops, so closing the session gets an answer
            if (connections != null) {
                connections.shutdown();
            }
        }
    }

    @Test
    void shouldReplaceTheNodeOfItsPreviousProcessWhenRestartedAtTheSameEndpoint() throws Exception {
        RelayRegistration registration = registration(9, 7072);
        ZooKeeper previous = connected(ZOOKEEPER.zooKeeper().connectString(), 0, null);
        try {
            previous.create(
                    "/changegrid", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (org.apache.zookeeper.KeeperException.NodeExistsException e) {
            // Made by an earlier test.
        }
        try {
            previous.create(
                    "/changegrid/relays",
                    new byte[0],
                    ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        } catch (org.apache.zookeeper.KeeperException.NodeExistsException e) {
            // Made by an earlier test.
        }
        previous.create(
                "/changegrid/relays/9",
                new byte[0],
                ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        previous.create(
                registration.path(),
                "stale".getBytes(StandardCharsets.UTF_8),
                ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL);
        try (RelayRegistrar registrar =
                RelayRegistrar.start(
                        ZOOKEEPER.zooKeeper().connectString(),
                        Duration.ofSeconds(4),
                        registration)) {
            Awaitility.await().atMost(SETTLE).until(registrar::isRegistered);

            assertThat(read(registration.path())).contains("\"sourceId\":9");
        } finally {
            previous.close();
        }
    }

    @Test
    void shouldCloseAtOnceWhenARetryIsWaitingForItsTurn() throws Exception {
        RelayRegistration registration = registration(11, 7074);
        ensure("/changegrid", ZooDefs.Ids.OPEN_ACL_UNSAFE);
        ensure("/changegrid/relays", ZooDefs.Ids.OPEN_ACL_UNSAFE);
        // Nobody may create below it: every attempt fails, and the waits grow to seconds.
        ensure(registration.sourcePath(), ZooDefs.Ids.READ_ACL_UNSAFE);
        RelayRegistrar registrar =
                RelayRegistrar.start(
                        ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4), registration);
        try {
            Awaitility.await().atMost(SETTLE).until(() -> registrar.failedAttempts() >= 3);
            assertThat(RelayRegistrar.retryDelayMillis(registrar.failedAttempts() + 1))
                    .isGreaterThanOrEqualTo(2_000);
        } finally {
            long started = System.nanoTime();
            registrar.close();
            // Closing the ZooKeeper handle takes a round trip and thread joins, which a busy
            // machine stretches; waiting for the next attempt would take its whole delay.
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("close does not wait for the next attempt's turn")
                    .isLessThan(Duration.ofMillis(1_900));
        }
        assertThat(registrar.isRegistered()).isFalse();
    }

    private void ensure(String path, List<org.apache.zookeeper.data.ACL> acl) throws Exception {
        try {
            reader.create(path, new byte[0], acl, CreateMode.PERSISTENT);
        } catch (org.apache.zookeeper.KeeperException.NodeExistsException e) {
            // Made by an earlier test.
        }
    }

    /**
     * A connected client; with a session id, attached to that session (password from ZooKeeper).
     */
    private static ZooKeeper connected(String connectString, long sessionId, byte[] password)
            throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        Watcher watcher =
                event -> {
                    if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                        connected.countDown();
                    }
                };
        ZooKeeper zooKeeper =
                sessionId == 0
                        ? new ZooKeeper(connectString, 4_000, watcher)
                        : new ZooKeeper(connectString, 4_000, watcher, sessionId, password);
        assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
        return zooKeeper;
    }
}
