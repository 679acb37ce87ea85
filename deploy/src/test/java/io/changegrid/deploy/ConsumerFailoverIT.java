package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two relays read the same mariadbd; a consumer streams from the first, which is shut down in the
 * middle of a load. The consumer fails over to the second at the same SCN and receives every
 * transaction, in commit order.
 */
class ConsumerFailoverIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path work;

    @Test
    void shouldLoseNothingWhenTheRelayItStreamsFromGoesAwayMidStream() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))");
        Relay first = RelayFixture.start(MARIADB.server(), work.resolve("relay1"), 9_501);
        Relay second = RelayFixture.start(MARIADB.server(), work.resolve("relay2"), 9_502);
        TransactionLog log = new TransactionLog();
        Consumer consumer =
                Consumer.builder()
                        .name("failover")
                        .relays(RelayFixture.url(first), RelayFixture.url(second))
                        .subscription(Subscription.tables("shop.orders"))
                        .fetchMaxBytes(2 << 10)
                        .pollTimeout(Duration.ofSeconds(5))
                        .fetchBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .batching(10, Duration.ZERO)
                        .callback(log)
                        .checkpointStore(new FileCheckpointStore(work.resolve("consumer.cp")))
                        .build();
        try {
            consumer.start();
            CompletableFuture<Void> load = CompletableFuture.runAsync(ConsumerFailoverIT::load);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> log.events().size() >= 150);
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(first) + "/");

            first.close(); // mid-stream: the load is still running

            load.get(60, TimeUnit.SECONDS);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    (log.events().contains("orders INSERT 600")
                                                    && consumer.status()
                                                            .relay()
                                                            .equals(RelayFixture.url(second) + "/"))
                                            || consumer.state() == ConsumerState.FAILED);
            assertThat(consumer.failure()).isEmpty();
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(second) + "/");
        } finally {
            consumer.close();
            first.close();
            second.close();
        }

        Map<String, Integer> deliveries = new HashMap<>();
        log.events().forEach(event -> deliveries.merge(event, 1, Integer::sum));
        assertThat(deliveries).hasSize(600);
        assertThat(deliveries.values())
                .as("the failover resumed at the puller's position: nothing was delivered twice")
                .containsOnly(1);
        List<TransactionLog.Delivered> transactions = log.transactions;
        for (int i = 1; i < transactions.size(); i++) {
            assertThat(transactions.get(i).scn()).isGreaterThan(transactions.get(i - 1).scn());
        }
        assertThat(log.events().get(599)).isEqualTo("orders INSERT 600");
    }

    private static void load() {
        try (Connection connection = MARIADB.server().connect("shop");
                Statement statement = connection.createStatement()) {
            for (int id = 1; id <= 600; id++) {
                statement.execute("INSERT INTO orders VALUES (" + id + ", 'order " + id + "')");
            }
        } catch (Exception e) {
            throw new IllegalStateException("load failed", e);
        }
    }
}
