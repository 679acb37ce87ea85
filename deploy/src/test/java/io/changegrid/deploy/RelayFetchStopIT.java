package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import io.changegrid.testkit.MariaDbExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
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
 * Two relays of one source; the fetcher of the one a consumer streams from stops (DDL it cannot
 * understand on a table only it captures). That relay answers 503 once the consumer has all it
 * holds and withdraws its ZooKeeper registration; the consumer continues from the other relay,
 * every row exactly once.
 */
class RelayFetchStopIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    /** System-versioned columns: MariaDB accepts them, the DDL parser refuses them. */
    private static final String UNPARSEABLE =
            "ALTER TABLE shop.audit"
                    + " ADD COLUMN valid_from TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
                    + " ADD COLUMN valid_to TIMESTAMP(6) GENERATED ALWAYS AS ROW END,"
                    + " ADD PERIOD FOR SYSTEM_TIME(valid_from, valid_to),"
                    + " ADD SYSTEM VERSIONING";

    @TempDir Path work;

    @Test
    void shouldMoveToTheOtherRelayWhenTheFetcherOfItsRelayStops() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))",
                        "CREATE TABLE shop.audit (id INT PRIMARY KEY)");
        String zooKeeper = ZOOKEEPER.zooKeeper().connectString();
        Relay breaking =
                RelayFixture.start(
                        MARIADB.server(),
                        work.resolve("relay1"),
                        9_531,
                        Map.of("cluster.zookeeper", zooKeeper, "capture.include", "shop.*"));
        Relay healthy =
                RelayFixture.start(
                        MARIADB.server(),
                        work.resolve("relay2"),
                        9_532,
                        Map.of("cluster.zookeeper", zooKeeper, "capture.include", "shop.orders"));
        ZooKeeper reader = connect(zooKeeper);
        TransactionLog log = new TransactionLog();
        Consumer consumer =
                Consumer.builder()
                        .name("fetch-stop")
                        .relays(RelayFixture.url(breaking), RelayFixture.url(healthy))
                        .subscription(Subscription.tables("shop.orders"))
                        .pollTimeout(Duration.ofSeconds(2))
                        .fetchBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .batching(10, Duration.ZERO)
                        .callback(log)
                        .checkpointStore(new FileCheckpointStore(work.resolve("consumer.cp")))
                        .build();
        try {
            String relays = RelayRegistration.sourcePath(1);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> reader.getChildren(relays, false).size() == 2);
            consumer.start();
            insert(1, 50);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> log.events().contains("orders INSERT 50"));
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(breaking) + "/");

            MARIADB.server().execute(UNPARSEABLE);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> breaking.failure() != null);
            insert(51, 100);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    log.events().contains("orders INSERT 100")
                                            || consumer.state() == ConsumerState.FAILED);
            assertThat(consumer.failure()).isEmpty();
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(healthy) + "/");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> reader.getChildren(relays, false).size() == 1);
            assertThat(reader.getChildren(relays, false))
                    .containsExactly("127.0.0.1_" + healthy.httpPort());

            HttpResponse<String> answer =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            RelayFixture.url(breaking)
                                                                    + "/v1/stream?timeoutMs=0&from="
                                                                    + breaking.buffer()
                                                                            .newestScn()))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(503);
            assertThat(answer.body())
                    .contains("\"fetchState\":\"FAILED\"")
                    .contains("DDL on a captured table could not be understood");
        } finally {
            consumer.close();
            reader.close();
            breaking.close();
            healthy.close();
        }
        Map<String, Integer> deliveries = new HashMap<>();
        log.events().forEach(event -> deliveries.merge(event, 1, Integer::sum));
        assertThat(deliveries).hasSize(100);
        assertThat(deliveries.values()).containsOnly(1);
        List<TransactionLog.Delivered> transactions = log.transactions;
        for (int i = 1; i < transactions.size(); i++) {
            assertThat(transactions.get(i).scn()).isGreaterThan(transactions.get(i - 1).scn());
        }
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
