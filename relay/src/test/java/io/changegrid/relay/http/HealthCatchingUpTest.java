package io.changegrid.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.stream.StreamHandler;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /v1/health} of a relay catching up after a start: 503 with the position and lag, so that
 * no new consumer is sent there, while {@code /v1/stream} keeps answering the consumers on it.
 */
class HealthCatchingUpTest {

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicReference<RelayHealth> health = new AtomicReference<>();
    private RelayHttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        buffer.close();
    }

    @Test
    void shouldAnswer503WithPositionAndLagWhileCatchingUpAnd200Once() throws Exception {
        ServingLimits limits = new ServingLimits(1 << 20, 100, 10);
        SchemaRegistry registry = new SchemaRegistry();
        server =
                new RelayHttpServer(
                        "127.0.0.1",
                        0,
                        () -> null,
                        health::get,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        new StreamHandler(buffer, registry, 0, "none", () -> null, limits),
                        registry,
                        limits);
        server.start();
        health.set(
                new RelayHealth(
                        RelayHealth.CATCHING_UP, null, "binlog.000003:4711 0-1-42", 123456, 9000));

        HttpResponse<String> catchingUp = get("/v1/health");
        assertThat(catchingUp.statusCode()).isEqualTo(503);
        assertThat(catchingUp.body())
                .isEqualTo(
                        "{\"status\":\"CATCHING_UP\",\"fetcher\":\"CATCHING_UP\","
                                + "\"position\":\"binlog.000003:4711 0-1-42\","
                                + "\"lagScn\":123456,\"lagMillis\":9000}");
        assertThat(get("/v1/stream?from=-1&timeoutMs=0").statusCode())
                .as("consumers on the relay keep streaming")
                .isEqualTo(200);

        health.set(new RelayHealth("RUNNING", null));
        HttpResponse<String> caughtUp = get("/v1/health");
        assertThat(caughtUp.statusCode()).isEqualTo(200);
        assertThat(caughtUp.body()).isEqualTo("{\"status\":\"UP\",\"fetcher\":\"RUNNING\"}");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
