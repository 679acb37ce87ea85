package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.http.RelayHealth;
import io.changegrid.relay.http.RelayHttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's HTTP limits as a consumer meets them: a 503 naming {@code http.maxParkedPolls} or
 * {@code http.maxConnections} when reached (health still answered), and a 400 naming the predicate
 * limit a subscription's filter exceeds.
 */
class StreamLimitsTest {

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Socket> sockets = new ArrayList<>();
    private RelayHttpServer server;
    private StreamHandler stream;

    private void start(ServingLimits limits) throws Exception {
        SchemaRegistry registry = new SchemaRegistry();
        stream = new StreamHandler(buffer, registry, 0, "none", () -> null, limits);
        server =
                new RelayHttpServer(
                        "127.0.0.1",
                        0,
                        () -> null,
                        () -> new RelayHealth("RUNNING", null),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        stream,
                        registry,
                        limits);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
        buffer.close();
    }

    @Test
    void shouldAnswer503NamingTheLimitWhenTooManyPollsAreParked() throws Exception {
        start(new ServingLimits(1 << 20, 100, 2));
        park("/v1/stream?from=0&timeoutMs=10000");
        park("/v1/stream?from=0&timeoutMs=10000");
        await(stream::parkedPolls, 2);

        HttpResponse<String> refused = get("/v1/stream?from=0&timeoutMs=10000");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("too many parked polls: http.maxParkedPolls=2");
        assertThat(get("/v1/stream?from=0&timeoutMs=0").statusCode())
                .as("a poll that does not wait is not parked")
                .isEqualTo(200);
    }

    @Test
    void shouldAnswer503NamingTheLimitWhenTooManyConnectionsAreOpen() throws Exception {
        start(new ServingLimits(1 << 20, 2, 100));
        park("/v1/stream?from=0&timeoutMs=10000");
        park("/v1/stream?from=0&timeoutMs=10000");
        await(stream::parkedPolls, 2);

        HttpResponse<String> refused = get("/v1/stream?from=0&timeoutMs=10000");

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("too many connections: http.maxConnections=2");
        assertThat(get("/v1/health").statusCode()).as("health is always answered").isEqualTo(200);
    }

    @Test
    void shouldAnswer400NamingTheLimitWhenAFilterPredicateNestsTooDeep() throws Exception {
        start(ServingLimits.defaults());
        String where = "(".repeat(33) + "id = 1" + ")".repeat(33);
        String filter =
                "{\"policies\": [{\"include\": [\"shop.*\"], \"where\": \"" + where + "\"}]}";

        HttpResponse<String> refused =
                get(
                        "/v1/stream?from=0&timeoutMs=0&filter="
                                + URLEncoder.encode(filter, StandardCharsets.UTF_8));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body())
                .contains("policies[0].where: predicate nested deeper than the limit: maxDepth=32");
    }

    /** A long-poll on its own connection, left waiting. */
    private void park(String target) throws Exception {
        Socket socket = new Socket("127.0.0.1", server.port());
        sockets.add(socket);
        OutputStream out = socket.getOutputStream();
        out.write(
                ("GET " + target + " HTTP/1.1\r\nHost: relay\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private HttpResponse<String> get(String target) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void await(IntSupplier value, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (value.getAsInt() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(value.getAsInt()).isEqualTo(expected);
    }
}
