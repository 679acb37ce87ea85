package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer does not take a relay's word for where the stream continues: a checkpoint header above
 * the newest SCN the relay says it holds is refused (the consumer moves to the next relay), and a
 * relay of another source than the consumer's first stops the consumer.
 */
class RelayAnswerCheckIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path work;

    @Test
    void shouldRefuseALastScnAboveTheNewestScnWhenARelayForgesIt() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))");
        Relay relay = RelayFixture.start(MARIADB.server(), work.resolve("relay"), 9_511);
        HttpClient client = new HttpClient();
        Server forger = null;
        TransactionLog log = new TransactionLog();
        Consumer consumer = null;
        try {
            insert(1, 20);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> relay.buffer().transactionsAppended() >= 20);
            client.start();
            ContentResponse recorded =
                    client.GET(
                            RelayFixture.url(relay)
                                    + RelayApi.STREAM
                                    + "?from=-1&format=binary&timeoutMs=0");
            assertThat(recorded.getStatus()).isEqualTo(200);
            long newest = Long.parseLong(recorded.getHeaders().get(StreamResponse.NEWEST_SCN));
            // Not a mock of the relay: the consumer's input validation is under test, so the
            // input is a real relay's recorded answer with one header forged, served by Jetty.
            forger = forgingServer(recorded, newest + 1_000_000);
            consumer =
                    Consumer.builder()
                            .name("forged")
                            .relays("http://127.0.0.1:" + port(forger), RelayFixture.url(relay))
                            .subscription(Subscription.tables("shop.orders"))
                            .pollTimeout(Duration.ofSeconds(2))
                            .fetchBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                            .batching(10, Duration.ZERO)
                            .callback(log)
                            .checkpointStore(new FileCheckpointStore(work.resolve("forged.cp")))
                            .build();
            consumer.start();
            insert(21, 40);
            Consumer running = consumer;
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    log.events().contains("orders INSERT 40")
                                            || running.state() == ConsumerState.FAILED);
            assertThat(consumer.failure()).isEmpty();
            assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(relay) + "/");
            assertThat(consumer.status().pulledScn())
                    .as("the forged checkpoint was never taken")
                    .isLessThanOrEqualTo(relay.buffer().newestScn());
        } finally {
            if (consumer != null) {
                consumer.close();
            }
            if (forger != null) {
                forger.stop();
            }
            client.stop();
            relay.close();
        }
        Map<String, Integer> deliveries = new HashMap<>();
        log.events().forEach(event -> deliveries.merge(event, 1, Integer::sum));
        assertThat(deliveries).hasSize(40);
        assertThat(deliveries.values()).containsOnly(1);
    }

    @Test
    void shouldStopWhenItsRelaysReadDifferentSources() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS shop",
                        "CREATE TABLE shop.lines (id INT PRIMARY KEY, note VARCHAR(200))");
        Relay first =
                RelayFixture.start(
                        MARIADB.server(), work.resolve("one"), 9_521, Map.of("source.id", "1"));
        Relay second =
                RelayFixture.start(
                        MARIADB.server(), work.resolve("two"), 9_522, Map.of("source.id", "2"));
        TransactionLog log = new TransactionLog();
        Consumer consumer =
                Consumer.builder()
                        .name("mixed")
                        .relays(RelayFixture.url(first), RelayFixture.url(second))
                        .subscription(Subscription.tables("shop.lines"))
                        .pollTimeout(Duration.ofSeconds(2))
                        .fetchBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .batching(10, Duration.ZERO)
                        .callback(log)
                        .checkpointStore(new FileCheckpointStore(work.resolve("mixed.cp")))
                        .build();
        try {
            consumer.start();
            execute("INSERT INTO shop.lines VALUES (1, 'first')");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> log.events().contains("lines INSERT 1"));

            first.close(); // the consumer turns to the relay of source 2

            execute("INSERT INTO shop.lines VALUES (2, 'second')");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.state() == ConsumerState.FAILED);
            assertThat(consumer.failure())
                    .map(ConsumerException::getMessage)
                    .hasValueSatisfying(
                            message ->
                                    assertThat(message)
                                            .contains("relays of different sources")
                                            .contains("sourceId=2, expected=1"));
            assertThat(log.events()).doesNotContain("lines INSERT 2");
        } finally {
            consumer.close();
            first.close();
            second.close();
        }
    }

    /**
     * Serves {@code recorded} to every request, its last-SCN header replaced by {@code lastScn}.
     */
    private static Server forgingServer(ContentResponse recorded, long lastScn) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        HttpFields headers = recorded.getHeaders();
        byte[] body = recorded.getContent();
        server.setHandler(
                new Handler.Abstract() {
                    @Override
                    public boolean handle(Request request, Response response, Callback callback) {
                        for (HttpField field : headers) {
                            if (field.getName().startsWith("X-Changegrid-")) {
                                response.getHeaders().put(field.getName(), field.getValue());
                            }
                        }
                        response.getHeaders().put(StreamResponse.LAST_SCN, Long.toString(lastScn));
                        response.getHeaders().put("Content-Type", headers.get("Content-Type"));
                        response.write(true, ByteBuffer.wrap(body), callback);
                        return true;
                    }
                });
        server.start();
        return server;
    }

    private static int port(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    private static void insert(int first, int last) throws Exception {
        for (int id = first; id <= last; id++) {
            execute("INSERT INTO shop.orders VALUES (" + id + ", 'order " + id + "')");
        }
    }

    private static void execute(String sql) throws Exception {
        try (Connection connection = MARIADB.server().connect("shop");
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
