package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.frame.FrameEncoder;
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
 * A relay whose fetcher stopped: it still serves what it holds above a checkpoint, and answers 503
 * with the fetch state and error to a checkpoint at or above the newest SCN it holds, where a
 * running relay would long-poll (issue 20, "a relay alive but no longer fetching").
 */
class StreamFetchStoppedTest {

    private static final int SOURCE_ID = 4;
    private static final long SCN = 100;

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private final HttpClient http = HttpClient.newHttpClient();
    private volatile FetcherStopped stopped;
    private RelayHttpServer server;

    @BeforeEach
    void start() throws Exception {
        SchemaRegistry registry = new SchemaRegistry();
        ServingLimits limits = ServingLimits.defaults();
        StreamHandler stream =
                new StreamHandler(
                        buffer,
                        registry,
                        SOURCE_ID,
                        "none",
                        () -> stopped,
                        limits,
                        null,
                        () -> -1,
                        "t");
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
        FrameEncoder encoder = new FrameEncoder(1024);
        encoder.appendHeartbeat(SOURCE_ID, SCN, 1_000);
        long tail =
                buffer.appendEncoded(
                        SCN, encoder.buffer().byteBuffer(), 0, encoder.buffer().position(), true);
        assertThat(tail).isPositive();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        buffer.close();
    }

    @Test
    void shouldAnswer503WithTheFetchStateWhenStoppedAndNothingAboveTheCheckpointIsHeld()
            throws Exception {
        stopped = new FetcherStopped("FAILED", "binlog purged: binlog.000003");

        HttpResponse<String> answer = get("/v1/stream?from=" + SCN + "&timeoutMs=0");

        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(answer.body())
                .contains("\"" + StreamResponse.FETCH_STATE_FIELD + "\":\"FAILED\"")
                .contains(
                        "\""
                                + StreamResponse.FETCH_ERROR_FIELD
                                + "\":\"binlog purged: binlog.000003\"")
                .contains("relay not fetching and holds nothing after the checkpoint: from=100");
    }

    @Test
    void shouldServeWhatItHoldsWhenStoppedAndTheCheckpointIsBelowIt() throws Exception {
        stopped = new FetcherStopped("FAILED", "binlog purged: binlog.000003");

        HttpResponse<String> answer = get("/v1/stream?from=" + (SCN - 1) + "&timeoutMs=0");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue(StreamResponse.LAST_SCN))
                .hasValue(Long.toString(SCN));
    }

    @Test
    void shouldAnswer200WhenTheFetcherRunsAndNothingIsNew() throws Exception {
        HttpResponse<String> answer = get("/v1/stream?from=" + SCN + "&timeoutMs=0");

        assertThat(answer.statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> get(String target) throws Exception {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
                        .timeout(Duration.ofSeconds(10))
                        .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
