package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.ConfigSchema;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import io.changegrid.testkit.tls.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group member on a ZooKeeper whose only client port speaks TLS: its own sessions (checkpoints,
 * epochs) use {@code cluster.zookeeperTls.*} directly, and Helix's participant and controller,
 * which take no client configuration, read the same settings from the JVM's properties. The member
 * is assigned every partition and claims each one's epoch, so both kinds of connection worked.
 */
class ClusterMemberTlsIT {

    @TempDir static Path files;

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static Properties saved;
    private static EmbeddedZooKeeper server;
    private static ZooKeeperTls tls;

    @BeforeAll
    static void startSecureZooKeeper() throws Exception {
        saved = (Properties) System.getProperties().clone();
        TestCertificates authority = TestCertificates.authority(files, "group test CA");
        TestCertificates.Issued zooKeeper =
                authority.issue("zookeeper", "zookeeper", "localhost", "127.0.0.1");
        // The server reads its key from the JVM's zookeeper.ssl.* properties, which the member's
        // settings also set (for Helix): both show the one certificate in this single JVM.
        System.setProperty("zookeeper.ssl.keyStore.location", zooKeeper.keyStore().toString());
        System.setProperty("zookeeper.ssl.keyStore.type", "PKCS12");
        System.setProperty("zookeeper.ssl.keyStore.password", TestCertificates.PASSWORD);
        System.setProperty("zookeeper.ssl.trustStore.location", authority.caPem().toString());
        System.setProperty("zookeeper.ssl.trustStore.type", "PEM");
        server = EmbeddedZooKeeper.startSecure();
        tls =
                ZooKeeperTls.read(
                        new ConfigSchema(ZooKeeperTls.KEYS)
                                .load(
                                        Map.of(),
                                        Map.of(
                                                "cluster.zookeeperTls.enabled",
                                                "true",
                                                "cluster.zookeeperTls.trustStore",
                                                authority.caPem().toString(),
                                                "cluster.zookeeperTls.keyStore",
                                                zooKeeper.keyStore().toString(),
                                                "cluster.zookeeperTls.keyStorePassword",
                                                TestCertificates.PASSWORD)));
        // What GroupConsumer.start does before Helix connects.
        tls.applyToJvm();
    }

    @AfterAll
    static void stopZooKeeper() {
        if (server != null) {
            server.close();
        }
        System.setProperties(saved);
    }

    @Test
    void shouldOwnEveryPartitionWhenZooKeeperSpeaksOnlyTls() throws Exception {
        GroupConfig config =
                new GroupConfig(
                        server.connectString(),
                        "tls",
                        "m1",
                        4,
                        1,
                        SESSION,
                        1,
                        "127.0.0.1",
                        -1,
                        TlsConfig.NONE,
                        null,
                        tls);
        Map<Integer, Long> owned = new ConcurrentHashMap<>();
        try (ZooKeeperSession session =
                ZooKeeperSession.open(server.connectString(), SESSION, null, tls)) {
            ClusterMember member =
                    ClusterMember.join(
                            config,
                            null,
                            partition ->
                                    new GroupCheckpoints(session, "tls").claim(partition, "m1"),
                            new PartitionListener() {
                                @Override
                                public void onAssigned(
                                        int partition, long epoch, Ownership ownership) {
                                    owned.put(partition, epoch);
                                }

                                @Override
                                public void onRevoked(int partition) {
                                    owned.remove(partition);
                                }
                            });
            try {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .untilAsserted(() -> assertThat(owned).containsOnlyKeys(0, 1, 2, 3));
                assertThat(owned.values()).allMatch(epoch -> epoch >= 1);
            } finally {
                member.close();
            }
        }
    }
}
