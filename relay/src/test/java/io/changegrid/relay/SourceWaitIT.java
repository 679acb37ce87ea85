package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.config.RelaySettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay started while its source is down waits for it, serving {@code /v1/health} (503 {@code
 * WAITING_FOR_SOURCE}) and {@code /v1/status} on its port, and starts once the server is up; a
 * relay whose source refuses its credentials fails the start at once (docs/relay.md, "Starting
 * while the source is down").
 */
class SourceWaitIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static MariaDbServer server;

    @TempDir Path work;

    @BeforeAll
    static void startServer() {
        server = MariaDbServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldWaitServingHealthAndStatusWhenTheSourceIsDownThenStartOnceItIsUp() throws Exception {
        server.crash(); // down, its port free: connections are refused
        int httpPort = FreePort.pick();
        Map<String, String> settings = settings(server.password(), httpPort);
        ExecutorService starter = Executors.newSingleThreadExecutor();
        Future<Relay> starting =
                starter.submit(() -> Relay.start(RelaySettings.load(Map.of(), settings)));
        Relay relay = null;
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> get(httpPort, "/v1/health").statusCode() == 503);
            HttpResponse<String> health = get(httpPort, "/v1/health");
            assertThat(health.body())
                    .contains("\"status\":\"WAITING_FOR_SOURCE\"")
                    .contains(
                            "waiting for source: source unreachable: address=127.0.0.1:"
                                    + server.port());
            HttpResponse<String> status = get(httpPort, "/v1/status");
            assertThat(status.statusCode()).isEqualTo(200);
            assertThat(status.body())
                    .contains("\"state\":\"WAITING_FOR_SOURCE\"")
                    .contains("\"error\":\"waiting for source: ");
            assertThat(get(httpPort, "/v1/stream?from=-1&timeoutMs=0").statusCode()).isEqualTo(503);
            assertThat(starting.isDone()).as("still waiting, not failed").isFalse();

            server.restart();

            relay = starting.get(30, TimeUnit.SECONDS);
            Relay started = relay;
            assertThat(started.httpPort()).isEqualTo(httpPort);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> started.buffer().newestScn() >= 0);
            long before = started.buffer().newestScn();
            server.execute(
                    "CREATE DATABASE waited",
                    "CREATE TABLE waited.t (id INT PRIMARY KEY)",
                    "INSERT INTO waited.t VALUES (1)");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> started.buffer().newestScn() > before);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> get(httpPort, "/v1/health").statusCode() == 200);
            assertThat(get(httpPort, "/v1/status").body()).contains("\"state\":\"RUNNING\"");
        } finally {
            if (relay != null) {
                relay.close();
            } else {
                starting.cancel(true); // interrupts the wait; the relay cleans up what it opened
            }
            starter.shutdown();
        }
    }

    @Test
    void shouldFailTheStartAtOnceNamingTheUserWhenTheSourceRefusesTheCredentials() {
        long started = System.nanoTime();

        Throwable refused =
                catchThrowable(
                        () ->
                                Relay.start(
                                        RelaySettings.load(
                                                Map.of(), settings("not-the-password", 0))));

        assertThat(refused).hasMessageContaining("Access denied for user");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isLessThan(Duration.ofSeconds(10));
    }

    private Map<String, String> settings(String password, int httpPort) {
        Map<String, String> settings = new HashMap<>();
        settings.put("source.host", server.host());
        settings.put("source.port", Integer.toString(server.port()));
        settings.put("source.user", server.user());
        settings.put("source.password", password);
        settings.put("source.serverId", "9851");
        settings.put("source.heartbeatInterval", "200ms");
        settings.put("source.connectTimeout", "2s");
        settings.put("buffer.capacity", "16MiB");
        settings.put("buffer.segmentSize", "1MiB");
        settings.put("state.directory", work.resolve("relay").toString());
        settings.put("http.port", Integer.toString(httpPort));
        return settings;
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
