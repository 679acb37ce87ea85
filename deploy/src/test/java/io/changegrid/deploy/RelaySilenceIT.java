package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.protocol.RelayRegistration;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay reads its source through a TCP proxy that the test freezes: the binlog connection hangs
 * with no error, no heartbeat and no row. After {@code cluster.silenceTimeout} the relay withdraws
 * its ZooKeeper registration; its binlog socket's read timeout drops the hung connection; once the
 * proxy lets new connections through, the relay reconnects on its own, reads the rows written
 * meanwhile and registers again.
 */
class RelaySilenceIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final Duration SILENCE = Duration.ofSeconds(3);

    @TempDir Path work;

    @Test
    void shouldWithdrawAndReconnectWhenTheBinlogConnectionHangs() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))");
        String zooKeeper = ZOOKEEPER.zooKeeper().connectString();
        String relays = RelayRegistration.sourcePath(1);
        ZooKeeper reader = connect(zooKeeper);
        try (FreezableTcpProxy proxy =
                new FreezableTcpProxy(MARIADB.server().host(), MARIADB.server().port())) {
            Relay relay =
                    RelayFixture.start(
                            MARIADB.server(),
                            work.resolve("relay"),
                            9_551,
                            Map.of(
                                    "source.host",
                                    "127.0.0.1",
                                    "source.port",
                                    Integer.toString(proxy.port()),
                                    "cluster.zookeeper",
                                    zooKeeper,
                                    "cluster.silenceTimeout",
                                    SILENCE.toMillis() + "ms"));
            try {
                String node = "127.0.0.1_" + relay.httpPort();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> children(reader, relays).contains(node));
                long initial = relay.buffer().newestScn();
                insert(1, 10);
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> relay.buffer().newestScn() > initial);

                proxy.freeze(); // no error, no heartbeat, no row: a partition
                long frozenAt = System.nanoTime();
                insert(11, 20);
                Awaitility.await()
                        .atMost(SILENCE.plusSeconds(15))
                        .until(() -> !children(reader, relays).contains(node));
                long withdrawnMillis = (System.nanoTime() - frozenAt) / 1_000_000;
                assertThat(withdrawnMillis).isGreaterThanOrEqualTo(SILENCE.toMillis());
                long frozenScn = relay.buffer().newestScn();

                proxy.admitNew(); // the hung connection stays hung: only a new one gets through
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> relay.buffer().newestScn() > frozenScn);
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> children(reader, relays).contains(node));
                System.out.println(
                        "registration withdrawn "
                                + withdrawnMillis
                                + " ms after the freeze (cluster.silenceTimeout="
                                + SILENCE.toMillis()
                                + " ms); reconnected and registered again after "
                                + (System.nanoTime() - frozenAt) / 1_000_000
                                + " ms");
            } finally {
                relay.close();
            }
        } finally {
            reader.close();
        }
    }

    private static List<String> children(ZooKeeper reader, String path) throws Exception {
        return reader.exists(path, false) == null ? List.of() : reader.getChildren(path, false);
    }

    private static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zooKeeper =
                new ZooKeeper(
                        connectString,
                        10_000,
                        event -> {
                            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                                connected.countDown();
                            }
                        });
        assertThat(connected.await(20, TimeUnit.SECONDS)).isTrue();
        return zooKeeper;
    }

    private static void insert(int first, int last) throws Exception {
        try (Connection connection = MARIADB.server().connect("shop");
                Statement statement = connection.createStatement()) {
            for (int id = first; id <= last; id++) {
                statement.execute("INSERT INTO orders VALUES (" + id + ", 'order " + id + "')");
            }
        }
    }
}
