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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code X-Changegrid-Source-Time} on the relay's stream answers: on every answer, and read when a
 * long poll is answered, not when it arrived.
 */
class StreamSourceTimeTest {

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicLong sourceTime = new AtomicLong(-1);
    private RelayHttpServer server;
    private StreamHandler stream;

    @BeforeEach
    void start() throws Exception {
        SchemaRegistry registry = new SchemaRegistry();
        ServingLimits limits = ServingLimits.defaults();
        stream =
                new StreamHandler(
                        buffer, registry, 0, "none", () -> null, limits, null, sourceTime::get);
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
    void shouldSendMinusOneWhenTheFetcherReceivedNothingYet() throws Exception {
        HttpResponse<String> answer = get("/v1/stream?from=-1&timeoutMs=0");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue(StreamResponse.SOURCE_TIME)).hasValue("-1");
    }

    @Test
    void shouldSendTheSourceTimeOfTheAnswerWhenALongPollEnds() throws Exception {
        sourceTime.set(1_764_150_000_000L);
        CompletableFuture<HttpResponse<String>> parked =
                http.sendAsync(request("/v1/stream?from=-1&timeoutMs=3000"), ofString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (stream.parkedPolls() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5); // polling with a deadline: the poll parks on a Jetty thread
        }
        assertThat(stream.parkedPolls()).isEqualTo(1);

        sourceTime.set(1_764_150_001_000L); // a heartbeat while the poll waits

        HttpResponse<String> answer = parked.get(10, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue(StreamResponse.SOURCE_TIME))
                .hasValue("1764150001000");
    }

    @Test
    void shouldSendTheSourceTimeWhenTheRequestIsRefused() throws Exception {
        sourceTime.set(1_764_150_000_000L);

        HttpResponse<String> answer = get("/v1/stream?from=x");

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.headers().firstValue(StreamResponse.SOURCE_TIME))
                .hasValue("1764150000000");
    }

    private HttpResponse<String> get(String target) throws Exception {
        return http.send(request(target), ofString());
    }

    private HttpRequest request(String target) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    private static HttpResponse.BodyHandler<String> ofString() {
        return HttpResponse.BodyHandlers.ofString();
    }
}
