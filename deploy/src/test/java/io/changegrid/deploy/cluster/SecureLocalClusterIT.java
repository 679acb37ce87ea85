package io.changegrid.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.tls.TlsContexts;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code local-cluster.sh start --secure}: relays serving HTTPS only with a CA made at start,
 * consumers holding a bearer token and the CA as {@code ${file:...}} references, an access file,
 * and ZooKeeper digest ACLs. Rows flow (over TLS: the relays speak nothing else), a request without
 * a token is refused, ZooKeeper speaks only TLS, and a ZooKeeper client without the group's
 * credentials cannot move its checkpoint.
 */
class SecureLocalClusterIT {

    private static final int ROWS = 300;
    private static LocalClusterFixture cluster;
    private static ClusterSecurity security;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                LocalClusterFixture.start(
                        Path.of("target", "it-clusters", "secure"),
                        2,
                        4,
                        Duration.ofSeconds(10),
                        List.of("--secure"));
        security = ClusterSecurity.of(cluster.directory());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldDeliverEveryRowOverTlsWhenTheGridIsSecured() throws Exception {
        try (RowLoad load = RowLoad.start(cluster.source(), ROWS, 200)) {
            load.awaitDone(60);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () ->
                                new Deliveries(cluster.written(RowLoad.TABLE)).insertedIds().size()
                                        == ROWS);
        String relay = relayUrl();
        assertThat(relay).startsWith("https://127.0.0.1:");
        // The consumers' files name their secrets by reference only.
        String consumerYaml =
                Files.readString(
                        cluster.directory().consumerDirectory("c1").resolve("consumer.yaml"));
        String token = Files.readString(security.consumerToken()).trim();
        assertThat(consumerYaml)
                .contains("relay.token: \"${file:")
                .contains("relay.tls.trustStore")
                .doesNotContain(token);
    }

    @Test
    void shouldAnswer401WhenARequestShowsNoToken() throws Exception {
        HttpResponse<String> none = get(relayUrl() + "/v1/stream?from=-1&timeoutMs=0", null);
        assertThat(none.statusCode()).as(none.body()).isEqualTo(401);
        HttpResponse<String> consumer =
                get(
                        relayUrl() + "/v1/stream?from=-1&timeoutMs=0&tables=shop.*",
                        Files.readString(security.consumerToken()).trim());
        assertThat(consumer.statusCode()).as(consumer.body()).isEqualTo(200);
        // Operations need the ops token; the consumers' principal may stream only.
        HttpResponse<String> metrics =
                get(relayUrl() + "/metrics", Files.readString(security.consumerToken()).trim());
        assertThat(metrics.statusCode()).isEqualTo(403);
        assertThat(
                        get(relayUrl() + "/v1/status", Files.readString(security.opsToken()).trim())
                                .statusCode())
                .isEqualTo(200);
        // Plain HTTP gets no answer: the port speaks TLS only.
        assertThatThrownBy(
                        () ->
                                HttpClient.newHttpClient()
                                        .send(
                                                HttpRequest.newBuilder(
                                                                URI.create(
                                                                        relayUrl()
                                                                                        .replace(
                                                                                                "https:",
                                                                                                "http:")
                                                                                + "/v1/health"))
                                                        .timeout(Duration.ofSeconds(5))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void shouldKeepSecretsOwnerOnlyAndDenyAnUnauthenticatedCheckpointWrite() throws Exception {
        for (Path secret :
                List.of(
                        security.tokens(),
                        security.consumerToken(),
                        security.opsToken(),
                        security.tlsPassword(),
                        security.serverKeyStore(),
                        security.zooKeeperPassword("group"))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
                    .as(secret.toString())
                    .isEqualTo("rw-------");
        }
        String path = new GroupCheckpoints(null, LocalClusterFixture.GROUP).path(0);
        try (ZooKeeperSession rogue =
                ZooKeeperSession.open(
                        cluster.directory().zooKeeperConnect(), Duration.ofSeconds(10))) {
            Object node = rogue.call(zk -> zk.exists(path, false));
            assertThat(node).as(path).isNotNull();
            assertThatThrownBy(() -> rogue.call(zk -> zk.setData(path, new byte[] {1}, -1)))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        }
    }

    @Test
    void shouldNotConnectAPlainZooKeeperClientWhenTheGridIsSecured() throws Exception {
        ZKClientConfig plain = new ZKClientConfig();
        plain.setProperty(ZKClientConfig.SECURE_CLIENT, "false");
        plain.setProperty(
                ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET,
                "org.apache.zookeeper.ClientCnxnSocketNIO");
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper client =
                new ZooKeeper(
                        cluster.directory().zooKeeperConnect(),
                        10_000,
                        event -> {
                            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                                connected.countDown();
                            }
                        },
                        plain);
        try {
            assertThat(connected.await(5, TimeUnit.SECONDS))
                    .as("a plain client connected to the secured grid's ZooKeeper")
                    .isFalse();
        } finally {
            client.close();
        }
    }

    private static String relayUrl() throws IOException {
        return cluster.directory().plan().getProperty("relay.relay-1.url");
    }

    private static HttpResponse<String> get(String url, String token) throws Exception {
        HttpClient client =
                HttpClient.newBuilder()
                        .sslContext(
                                TlsContexts.jdkClient(
                                        new TlsConfig(
                                                null,
                                                null,
                                                null,
                                                "",
                                                security.caPem(),
                                                "",
                                                ClientAuth.NONE)))
                        .build();
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
