package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.json.EventJsonWriter;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
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
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code format=json} answers of a transaction in parts: each part's END_OF_TRANSACTION line says
 * {@code "continued":true}, the transaction's last one does not, and the events count on across the
 * parts.
 */
class StreamJsonPartsTest {

    private static final int SOURCE_ID = 3;
    private static final long SCN = 100;
    private static final int PARTS = 3;
    private static final int EVENTS_PER_PART = 2;

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private final SchemaRegistry registry = new SchemaRegistry();
    private final HttpClient http = HttpClient.newHttpClient();
    private RelayHttpServer server;

    @BeforeEach
    void start() throws Exception {
        ServingLimits limits = ServingLimits.defaults();
        StreamHandler stream =
                new StreamHandler(
                        buffer, registry, 0, "none", () -> null, limits, null, () -> -1, "t");
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
    void shouldMarkEachPartEndAsContinuedWhenServingJson() throws Exception {
        appendInParts();

        HttpResponse<String> answer = get("/v1/stream?from=" + (SCN - 1) + "&format=json");

        assertThat(answer.statusCode()).isEqualTo(200);
        List<JsonNode> lines = new ArrayList<>();
        ObjectMapper mapper = new ObjectMapper();
        for (String line : answer.body().split("\n")) {
            lines.add(mapper.readTree(line));
        }
        List<String> shape = new ArrayList<>();
        for (JsonNode line : lines) {
            boolean continued = line.path(EventJsonWriter.CONTINUED).asBoolean(false);
            assertThat(line.get("scn").asLong()).isEqualTo(SCN);
            shape.add(line.get("op").asText() + "@" + line.get("index") + (continued ? "+" : ""));
        }
        assertThat(shape)
                .containsExactly(
                        "INSERT@0",
                        "INSERT@1",
                        "END_OF_TRANSACTION@2+",
                        "INSERT@2",
                        "INSERT@3",
                        "END_OF_TRANSACTION@4+",
                        "INSERT@4",
                        "INSERT@5",
                        "END_OF_TRANSACTION@6");
        assertThat(lines.get(8).has(EventJsonWriter.CONTINUED)).isFalse();
    }

    private void appendInParts() {
        TableSchema schema =
                registry.register(
                        "shop",
                        "orders",
                        List.of(
                                new Column("id", ValueType.INT64, "bigint", false, 0),
                                new Column("note", ValueType.STRING, "varchar(20)", true, 0)),
                        List.of("id"));
        FrameEncoder encoder = new FrameEncoder(4 * 1024);
        encoder.beginTransaction(SOURCE_ID, SCN, 1_000, "0-1-" + SCN);
        for (int part = 0; part < PARTS; part++) {
            for (int i = 0; i < EVENTS_PER_PART; i++) {
                long id = part * EVENTS_PER_PART + i;
                encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {id, "n"});
            }
            ByteBuffer frames = encoder.buffer().byteBuffer();
            int length;
            long tail;
            if (part < PARTS - 1) {
                encoder.endPart();
                length = encoder.buffer().position();
                tail = buffer.appendPart(SCN, frames, 0, length);
            } else {
                encoder.endTransaction();
                length = encoder.buffer().position();
                tail = buffer.appendEncoded(SCN, frames, 0, length, false);
            }
            assertThat(tail).as("part %d appended", part).isPositive();
            encoder.buffer().clear();
        }
    }

    private HttpResponse<String> get(String target) throws Exception {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
                        .timeout(Duration.ofSeconds(10))
                        .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
