package io.changegrid.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import io.changegrid.gridkit.server.FreePort;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class EmbeddedZooKeeperIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @Test
    void shouldReadZnodeBackWhenClientCreatesIt() throws Exception {
        // Not try-with-resources: ZooKeeper.close() throws InterruptedException, which javac's
        // -Xlint:try (an error here) rejects in a resource.
        var client = connect(ZOOKEEPER.zooKeeper().connectString());
        try {
            client.create(
                    "/changegrid",
                    "relay-1".getBytes(UTF_8),
                    Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);

            assertThat(new String(client.getData("/changegrid", false, null), UTF_8))
                    .isEqualTo("relay-1");
        } finally {
            client.close();
        }
    }

    @Test
    void shouldRemoveDataAndClosePortWhenClosed() throws Exception {
        var zooKeeper = EmbeddedZooKeeper.start();
        var port = zooKeeper.port();
        var client = connect(zooKeeper.connectString());
        try {
            client.create("/written", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } finally {
            client.close();
        }
        assertThat(zooKeeper.dataDir()).isDirectory();

        zooKeeper.close();

        assertThat(zooKeeper.dataDir().getParent()).doesNotExist();
        assertThat(Ports.acceptsConnections(FreePort.HOST, port)).isFalse();
    }

    /** A client whose session is established, so the first request does not race the handshake. */
    private static ZooKeeper connect(String connectString)
            throws IOException, InterruptedException, KeeperException {
        var connected = new CountDownLatch(1);
        var client =
                new ZooKeeper(
                        connectString,
                        10_000,
                        event -> {
                            if (event.getState() == KeeperState.SyncConnected) {
                                connected.countDown();
                            }
                        });
        if (!connected.await(10, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("no ZooKeeper session in 10 s: " + connectString);
        }
        return client;
    }
}
