package io.changegrid.protocol.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigSchema;
import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import io.changegrid.testkit.tls.TestCertificates;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to a real in-process ZooKeeper whose only client port is its secure one (Netty, a test CA's
 * certificate, client certificates needed, ZooKeeper's default): {@code cluster.zookeeperTls.*}
 * read as a program reads it, used by our sessions through their client configuration and by a
 * handle opened as Helix opens its own, from the JVM's properties.
 */
class ZooKeeperTlsIT {

    @TempDir static Path files;

    private static final ConfigSchema SCHEMA = new ConfigSchema(ZooKeeperTls.KEYS);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static Properties saved;
    private static TestCertificates authority;
    private static TestCertificates.Issued client;
    private static TestCertificates.Issued zooKeeper;
    private static EmbeddedZooKeeper server;

    @BeforeAll
    static void startSecureZooKeeper() throws Exception {
        saved = (Properties) System.getProperties().clone();
        authority = TestCertificates.authority(files.resolve("ca"), "zookeeper test CA");
        zooKeeper = authority.issue("zookeeper", "zookeeper", "localhost", "127.0.0.1");
        client = authority.issue("member", "member", "127.0.0.1");
        // ZooKeeper's server reads its TLS settings from the JVM's properties, at each connection.
        System.setProperty("zookeeper.ssl.keyStore.location", zooKeeper.keyStore().toString());
        System.setProperty("zookeeper.ssl.keyStore.type", "PKCS12");
        System.setProperty("zookeeper.ssl.keyStore.password", TestCertificates.PASSWORD);
        System.setProperty("zookeeper.ssl.trustStore.location", authority.caPem().toString());
        System.setProperty("zookeeper.ssl.trustStore.type", "PEM");
        server = EmbeddedZooKeeper.startSecure();
    }

    @AfterAll
    static void stopZooKeeper() {
        if (server != null) {
            server.close();
        }
        System.setProperties(saved);
    }

    @Test
    void shouldCreateAndReadNodesOverTlsWhenOnlyTheSecurePortIsOpen() throws Exception {
        ZooKeeperTls tls = settings(authority.caPem());
        assertThat(tls.clientProperties())
                .containsEntry("zookeeper.client.secure", "true")
                .containsEntry("zookeeper.ssl.trustStore.type", "PEM")
                .containsEntry("zookeeper.ssl.keyStore.type", "PKCS12");
        try (ZooKeeperSession session =
                ZooKeeperSession.open(server.connectString(), TIMEOUT, null, tls)) {
            session.createPath("/changegrid/tls");
            assertThat((Object) session.call(zk -> zk.exists("/changegrid/tls", false)))
                    .isNotNull();
        }
    }

    @Test
    void shouldNotConnectWhenTheClientSpeaksPlainToTheSecurePort() {
        assertThatThrownBy(
                        () ->
                                ZooKeeperSession.open(server.connectString(), Duration.ofSeconds(3))
                                        .close())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("ZooKeeper not reachable");
    }

    @Test
    void shouldNotConnectWhenTheServersCertificateIsNotTrusted() throws Exception {
        TestCertificates stranger =
                TestCertificates.authority(files.resolve("other"), "another CA");
        ZooKeeperTls tls = settings(stranger.caPem());
        assertThatThrownBy(
                        () ->
                                ZooKeeperSession.open(
                                                server.connectString(),
                                                Duration.ofSeconds(3),
                                                null,
                                                tls)
                                        .close())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("ZooKeeper not reachable");
    }

    @Test
    void shouldConnectAHandleOpenedAsHelixOpensItsOwnWhenAppliedToTheJvm() throws Exception {
        Properties before = (Properties) System.getProperties().clone();
        // The server in this JVM reads the same zookeeper.ssl.* properties for its own key: the
        // client shows the server's certificate here, so that applying does not change it.
        settings(authority.caPem(), zooKeeper).applyToJvm();
        CountDownLatch connected = new CountDownLatch(1);
        // Helix 2.0.1's ZkConnection: new ZooKeeper(servers, timeout, watcher), no client config.
        ZooKeeper helixLike =
                new ZooKeeper(
                        server.connectString(),
                        (int) TIMEOUT.toMillis(),
                        event -> {
                            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                                connected.countDown();
                            }
                        });
        try {
            assertThat(connected.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            helixLike.create(
                    "/helix-like", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            assertThat((Object) helixLike.exists("/helix-like", false)).isNotNull();
        } finally {
            helixLike.close();
            System.setProperties(before);
        }
    }

    @Test
    void shouldRefuseSeparatePemFilesAndFilesWithTlsOff() {
        Map<String, String> separate = new HashMap<>();
        separate.put("cluster.zookeeperTls.enabled", "true");
        separate.put("cluster.zookeeperTls.certificate", client.chainPem().toString());
        separate.put("cluster.zookeeperTls.privateKey", client.keyPem().toString());
        assertThatThrownBy(() -> ZooKeeperTls.read(SCHEMA.load(Map.of(), separate)))
                .hasMessageContaining("cluster.zookeeperTls.privateKey")
                .hasMessageContaining("one file");
        Map<String, String> off = Map.of("cluster.zookeeperTls.trustStore", "" + authority.caPem());
        assertThatThrownBy(() -> ZooKeeperTls.read(SCHEMA.load(Map.of(), off)))
                .hasMessageContaining("cluster.zookeeperTls.enabled");
        assertThat(ZooKeeperTls.read(SCHEMA.load(Map.of(), Map.of())).clientProperties()).isEmpty();
    }

    /** The settings as a program reads them: TLS on, a trust store, the member's certificate. */
    private static ZooKeeperTls settings(Path trustStore) {
        return settings(trustStore, client);
    }

    private static ZooKeeperTls settings(Path trustStore, TestCertificates.Issued client) {
        Map<String, String> settings = new HashMap<>();
        settings.put("cluster.zookeeperTls.enabled", "true");
        settings.put("cluster.zookeeperTls.trustStore", trustStore.toString());
        settings.put("cluster.zookeeperTls.keyStore", client.keyStore().toString());
        settings.put("cluster.zookeeperTls.keyStorePassword", TestCertificates.PASSWORD);
        return ZooKeeperTls.read(SCHEMA.load(Map.of(), settings));
    }
}
