package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.config.ServingLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code http.edgeLinger}: at the live edge a poll that would get a small response waits, from its
 * arrival, for more transactions and answers them together; one that has half its {@code maxBytes}
 * waiting, or asks with {@code timeoutMs=0}, is answered at once.
 */
class StreamEdgeLingerTest {

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(256 * 1024, 64 * 1024));
    private final SchemaRegistry registry = new SchemaRegistry();
    private final TableSchema items =
            registry.register(
                    "shop",
                    "items",
                    List.of(Column.of("id", ValueType.INT64), Column.of("name", ValueType.STRING)),
                    List.of("id"));
    private final FrameEncoder encoder = new FrameEncoder(64 * 1024);
    private final HttpClient http = HttpClient.newHttpClient();
    private StreamHandler stream;
    private Server server;
    private int port;

    private void start(Duration linger) throws Exception {
        stream =
                new StreamHandler(
                        buffer,
                        registry,
                        0,
                        "none",
                        () -> null,
                        new ServingLimits(1 << 20, 100, 100, 1, linger.toNanos()));
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(stream);
        server.start();
        port = connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        buffer.close();
    }

    @Test
    void shouldAnswerTransactionsAppendedDuringTheLingerTogetherWhenEachIsSmall() throws Exception {
        start(Duration.ofMillis(400));
        long asked = System.nanoTime();
        CompletableFuture<HttpResponse<byte[]>> poll = get("from=0&timeoutMs=30000&maxBytes=65536");
        await(stream::parkedPolls, 1);

        append(1, 2);
        append(2, 2);
        append(3, 2);
        HttpResponse<byte[]> answer = poll.get(10, TimeUnit.SECONDS);

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue(StreamResponse.LAST_SCN))
                .as("the three small transactions in one response")
                .hasValue("3");
        assertThat(System.nanoTime() - asked)
                .as("answered once the linger was over, not at the first append")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
    }

    @Test
    void shouldAnswerAtOnceWhenHalfOfMaxBytesIsThere() throws Exception {
        start(Duration.ofSeconds(60));
        CompletableFuture<HttpResponse<byte[]>> poll = get("from=0&timeoutMs=120000&maxBytes=4096");
        await(stream::parkedPolls, 1);

        append(1, 40); // more than 2 KiB

        HttpResponse<byte[]> answer = poll.get(10, TimeUnit.SECONDS);
        assertThat(answer.headers().firstValue(StreamResponse.LAST_SCN)).hasValue("1");
        assertThat(answer.body().length).isGreaterThanOrEqualTo(2048);
    }

    @Test
    void shouldAnswerAtOnceWhenThePollDoesNotWait() throws Exception {
        start(Duration.ofSeconds(60));
        append(1, 2);

        HttpResponse<byte[]> answer =
                get("from=0&timeoutMs=0&maxBytes=65536").get(10, TimeUnit.SECONDS);

        assertThat(answer.headers().firstValue(StreamResponse.LAST_SCN)).hasValue("1");
        assertThat(answer.body()).isNotEmpty();
    }

    /** Appends a transaction of {@code rows} rows of about 60 bytes at {@code scn}. */
    private void append(long scn, int rows) {
        encoder.buffer().clear();
        encoder.beginTransaction(1, scn, scn * 1000, "tx-" + scn);
        for (int row = 0; row < rows; row++) {
            encoder.appendRowChange(
                    Operation.INSERT, items, null, new Object[] {(long) row, "item-" + scn});
        }
        encoder.endTransaction();
        int length = encoder.buffer().position();
        assertThat(buffer.append(scn, encoder.buffer().byteBuffer(), 0, length)).isPositive();
    }

    private CompletableFuture<HttpResponse<byte[]>> get(String query) {
        return http.sendAsync(
                HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/v1/stream?" + query))
                        .timeout(Duration.ofSeconds(130))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void await(IntSupplier value, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (value.getAsInt() != expected && System.nanoTime() < deadline) {
            Thread.sleep(5); // polling a condition with a deadline
        }
        assertThat(value.getAsInt()).isEqualTo(expected);
    }
}
