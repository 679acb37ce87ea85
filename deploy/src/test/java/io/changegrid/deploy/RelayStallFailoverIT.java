package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.Relay;
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
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two relays of one mariadbd; the first reads it through a TCP proxy that the test freezes, so its
 * binlog connection hangs while its fetcher, HTTP API and buffer stay alive, answering empty 200s.
 * Its {@code X-Changegrid-Source-Time} stops changing; after {@code fetch.stallTimeout} the
 * consumer moves to the second relay and receives the rows written since, every row exactly once.
 */
class RelayStallFailoverIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);

    @TempDir Path work;

    @Test
    void shouldMoveToTheOtherRelayWhenItsRelayNoLongerHearsFromTheSource() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))");
        FreezableTcpProxy proxy =
                new FreezableTcpProxy(MARIADB.server().host(), MARIADB.server().port());
        Relay stalling =
                RelayFixture.start(
                        MARIADB.server(),
                        work.resolve("relay1"),
                        9_541,
                        Map.of("source.host", "127.0.0.1", "source.port", "" + proxy.port()));
        Relay healthy = RelayFixture.start(MARIADB.server(), work.resolve("relay2"), 9_542);
        TransactionLog log = new TransactionLog();
        Consumer consumer =
                Consumer.builder()
                        .name("stall")
                        .relays(RelayFixture.url(stalling), RelayFixture.url(healthy))
                        .subscription(Subscription.tables("shop.orders"))
                        .pollTimeout(POLL_TIMEOUT)
                        .stallTimeout(STALL_TIMEOUT)
                        .fetchBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .batching(10, Duration.ZERO)
                        .callback(log)
                        .checkpointStore(new FileCheckpointStore(work.resolve("consumer.cp")))
                        .build();
        long failoverMillis;
        try {
            long before = sourceTime(healthy);
            consumer.start();
            insert(1, 100);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> log.events().contains("orders INSERT 100"));
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(stalling) + "/");
            // Heartbeats carry the relay's clock and transactions the source's commit second,
            // so the value may step back a little: it changes, as StallWatch expects.
            assertThat(sourceTime(healthy))
                    .as("a relay's source time moves with transactions and heartbeats")
                    .isNotEqualTo(before);

            proxy.freeze(); // the binlog connection hangs: no error, no heartbeat, no row
            long frozenAt = System.nanoTime();
            insert(101, 300);
            Awaitility.await()
                    .atMost(STALL_TIMEOUT.plus(POLL_TIMEOUT).plusSeconds(6))
                    .until(
                            () ->
                                    log.events().contains("orders INSERT 300")
                                            || consumer.state() == ConsumerState.FAILED);
            failoverMillis = (System.nanoTime() - frozenAt) / 1_000_000;
            assertThat(consumer.failure()).isEmpty();
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(healthy) + "/");
            long stalledTime = sourceTime(stalling); // a 200: its fetcher did not stop
            assertThat(sourceTime(stalling))
                    .as("the stalled relay's source time no longer changes")
                    .isEqualTo(stalledTime);
            assertThat(stalling.buffer().newestScn())
                    .as("the stalled relay never saw the rows written after the freeze")
                    .isLessThan(healthy.buffer().newestScn());
        } finally {
            consumer.close();
            proxy.close(); // ends the hung connection, so the relay can stop
            stalling.close();
            healthy.close();
        }
        System.out.println(
                "rows after the freeze delivered through the healthy relay in "
                        + failoverMillis
                        + " ms (fetch.stallTimeout="
                        + STALL_TIMEOUT.toMillis()
                        + " ms, fetch.pollTimeout="
                        + POLL_TIMEOUT.toMillis()
                        + " ms)");

        Map<String, Integer> deliveries = new HashMap<>();
        log.events().forEach(event -> deliveries.merge(event, 1, Integer::sum));
        assertThat(deliveries).hasSize(300);
        assertThat(deliveries.values()).as("every row exactly once").containsOnly(1);
        assertThat(log.events().get(299)).isEqualTo("orders INSERT 300");
    }

    /** The relay's {@link StreamResponse#SOURCE_TIME}, from an immediate stream answer. */
    private static long sourceTime(Relay relay) throws Exception {
        HttpResponse<String> answer =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        RelayFixture.url(relay)
                                                                + "/v1/stream?from="
                                                                + relay.buffer().newestScn()
                                                                + "&timeoutMs=0"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        return Long.parseLong(
                answer.headers().firstValue(StreamResponse.SOURCE_TIME).orElseThrow());
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
