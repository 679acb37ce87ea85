package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.http.RelayHealth;
import io.changegrid.relay.http.RelayHttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code X-Changegrid-Timeline} on the relay's stream answers: the fetcher's timeline on every
 * answer, a long poll's and a refusal's alike.
 */
class StreamTimelineTest {

    private static final String TIMELINE = "mariadb-gtid:domain=0";

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private final HttpClient http = HttpClient.newHttpClient();
    private RelayHttpServer server;
    private StreamHandler stream;

    @BeforeEach
    void start() throws Exception {
        SchemaRegistry registry = new SchemaRegistry();
        ServingLimits limits = ServingLimits.defaults();
        stream =
                new StreamHandler(
                        buffer, registry, 0, "none", () -> null, limits, null, () -> -1, TIMELINE);
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
        server.close();
        buffer.close();
    }

    @Test
    void shouldSendTheTimelineWhenALongPollEnds() throws Exception {
        HttpResponse<String> answer = get("/v1/stream?from=-1&timeoutMs=50");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue(StreamResponse.TIMELINE)).hasValue(TIMELINE);
    }

    @Test
    void shouldSendTheTimelineWhenTheRequestIsRefused() throws Exception {
        HttpResponse<String> answer = get("/v1/stream?from=x");

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.headers().firstValue(StreamResponse.TIMELINE)).hasValue(TIMELINE);
    }

    private HttpResponse<String> get(String target) throws Exception {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
                        .timeout(Duration.ofSeconds(10))
                        .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
