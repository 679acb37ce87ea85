package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.changegrid.config.Config;
import io.changegrid.events.Operation;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.MariaDbExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A relay in-process against a private mariadbd, seen through its HTTP API. */
class RelayIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir static Path state;

    private static Relay relay;
    private static StreamClient client;

    static Config config(MariaDbServer server, Path stateDirectory, long serverId) {
        return RelaySettings.load(
                Map.of(),
                Map.of(
                        "source.host", server.host(),
                        "source.port", Integer.toString(server.port()),
                        "source.user", server.user(),
                        "source.password", server.password(),
                        "source.serverId", Long.toString(serverId),
                        "source.heartbeatInterval", "200ms",
                        "buffer.capacity", "64MiB",
                        "buffer.segmentSize", "4MiB",
                        "state.directory", stateDirectory.toString(),
                        "http.port", "0"));
    }

    @BeforeAll
    static void startRelay() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, customer VARCHAR(40), total DECIMAL(10,2))",
                        "CREATE TABLE shop.items (id INT PRIMARY KEY, order_id INT, sku VARCHAR(20))");
        relay = Relay.start(config(MARIADB.server(), state, 9_101));
        client = new StreamClient(relay.httpPort());
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> relay.buffer().newestScn() >= 0);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    private static void insertOrders(int from, int count) throws Exception {
        for (int i = from; i < from + count; i++) {
            MARIADB.server()
                    .execute(
                            "INSERT INTO shop.orders VALUES ("
                                    + i
                                    + ", 'customer "
                                    + i
                                    + "', "
                                    + i
                                    + ".25)");
        }
    }

    @Test
    void shouldStreamWholeTransactionsInScnOrderFromTheOldestHeld() throws Exception {
        long before = relay.status().newestScn();
        insertOrders(1, 30);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> countRows(before) >= 30);

        long checkpoint = -1;
        List<StreamClient.Frame> all = new ArrayList<>();
        while (true) {
            HttpResponse<byte[]> response =
                    client.get("/v1/stream?from=" + checkpoint + "&timeoutMs=0&maxBytes=1024");
            assertThat(response.statusCode()).isEqualTo(200);
            List<StreamClient.Frame> frames = StreamClient.frames(response.body());
            if (frames.isEmpty()) {
                assertThat(StreamClient.lastScn(response)).isEqualTo(checkpoint);
                break;
            }
            // Whole transactions only: every response ends with a transaction's end or a heartbeat.
            int lastOp = frames.get(frames.size() - 1).operationCode();
            assertThat(lastOp)
                    .isIn(Operation.END_OF_TRANSACTION.code(), Operation.HEARTBEAT.code());
            assertThat(StreamClient.lastScn(response))
                    .isEqualTo(frames.get(frames.size() - 1).scn());
            all.addAll(frames);
            checkpoint = StreamClient.lastScn(response);
        }
        long previous = -1;
        for (StreamClient.Frame frame : all) {
            assertThat(frame.scn()).isGreaterThanOrEqualTo(previous);
            previous = frame.scn();
        }
        assertThat(all.stream().filter(f -> f.operationCode() == Operation.INSERT.code()).count())
                .isGreaterThanOrEqualTo(30);
    }

    @Test
    void shouldAnswerAParkedRequestAsSoonAsATransactionIsCommitted() throws Exception {
        long newest = relay.buffer().newestScn();
        CompletableFuture<HttpResponse<byte[]>> parked =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return client.get(
                                        "/v1/stream?from="
                                                + newest
                                                + "&timeoutMs=20000&tables=shop.orders");
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        // Let the request park, then commit.
        Awaitility.await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        long committedAt = System.nanoTime();
        insertOrders(500, 1);

        HttpResponse<byte[]> response = parked.get(15, TimeUnit.SECONDS);
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - committedAt);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(StreamClient.frames(response.body()))
                .extracting(StreamClient.Frame::operationCode)
                .contains(Operation.INSERT.code());
        assertThat(waitedMillis).as("answered long before the 20 s timeout").isLessThan(5_000);
    }

    @Test
    void shouldAnswerEmptyWithTheSameCheckpointWhenNothingArrivesBeforeTheTimeout()
            throws Exception {
        long newest = relay.buffer().newestScn();
        HttpResponse<byte[]> response =
                client.get("/v1/stream?from=" + (newest + 1_000_000_000_000L) + "&timeoutMs=300");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat(StreamClient.lastScn(response)).isEqualTo(newest + 1_000_000_000_000L);
    }

    @Test
    void shouldAnswer410WithTheOldestScnWhenTheCheckpointIsOlderThanTheBuffer() throws Exception {
        HttpResponse<String> response = client.getText("/v1/stream?from=0");

        assertThat(response.statusCode()).isEqualTo(410);
        assertThat(response.body())
                .contains("\"error\":\"checkpoint older than the buffer: from=0, oldestScn=")
                .contains("\"oldestScn\":");
    }

    @Test
    void shouldAnswer400NamingTheParameterWhenARequestIsMalformed() throws Exception {
        assertBadRequest("/v1/stream", "bad parameter: name=from, value=: required");
        assertBadRequest(
                "/v1/stream?from=abc", "bad parameter: name=from, value=abc: an integer from -1");
        assertBadRequest("/v1/stream?from=1&maxBytes=5", "bad parameter: name=maxBytes, value=5");
        assertBadRequest(
                "/v1/stream?from=1&timeoutMs=-4", "bad parameter: name=timeoutMs, value=-4");
        assertBadRequest(
                "/v1/stream?from=1&format=xml",
                "bad parameter: name=format, value=xml: binary or json");
        assertBadRequest(
                "/v1/stream?from=1&p=1", "bad parameter: name=n, value=: p and n go together");
        assertBadRequest("/v1/stream?from=1&p=4&n=4", "bad parameter: name=p, value=4");
        assertBadRequest("/v1/stream?from=1&tables=shop", "bad parameter: name=tables, value=shop");
        assertBadRequest(
                "/v1/stream?from=1&form=1", "bad parameter: name=form, value=1: unknown parameter");
        assertBadRequest(
                "/v1/stream?from=1&from=2",
                "bad parameter: name=from, value=1,2: given more than once");
        assertThat(client.getText("/v1/nothing").statusCode()).isEqualTo(404);
    }

    private static void assertBadRequest(String pathAndQuery, String message) throws Exception {
        HttpResponse<String> response = client.getText(pathAndQuery);
        assertThat(response.statusCode()).as(pathAndQuery).isEqualTo(400);
        assertThat(response.body()).as(pathAndQuery).contains(message);
    }

    @Test
    void shouldSplitTheStreamIntoDisjointPartitionsThatTogetherHoldEveryRow() throws Exception {
        long before = relay.status().newestScn();
        insertOrders(1000, 40);
        MARIADB.server().execute("INSERT INTO shop.items VALUES (1, 1000, 'not wanted')");
        // Every row of this test in the buffer: the partitions and the whole are read after it.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> countRows(before) >= 41);

        Set<String> union = new HashSet<>();
        int total = 0;
        for (int p = 0; p < 4; p++) {
            HttpResponse<byte[]> response =
                    client.get(
                            "/v1/stream?from=-1&timeoutMs=0&maxBytes=67108864"
                                    + "&tables=shop.orders&p="
                                    + p
                                    + "&n=4");
            for (StreamClient.Frame frame : StreamClient.frames(response.body())) {
                if (frame.operationCode() == Operation.INSERT.code()) {
                    union.add(frame.scn() + "/" + frame.index());
                    total++;
                    assertThat(frame.tableId())
                            .isEqualTo(relay.status().sourceId() > 0 ? frame.tableId() : 0);
                }
            }
        }
        HttpResponse<byte[]> everything =
                client.get("/v1/stream?from=-1&timeoutMs=0&maxBytes=67108864&tables=shop.orders");
        long expected =
                StreamClient.frames(everything.body()).stream()
                        .filter(f -> f.operationCode() == Operation.INSERT.code())
                        .count();
        assertThat(total).as("no row in two partitions").isEqualTo(union.size());
        assertThat((long) union.size()).as("every row in one partition").isEqualTo(expected);
    }

    @Test
    void shouldServeTheSameEventsAsJsonLines() throws Exception {
        long before = relay.status().newestScn();
        insertOrders(2000, 2);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> countRows(before) >= 2);

        HttpResponse<String> response =
                client.getText(
                        "/v1/stream?from=-1&timeoutMs=0&format=json&maxBytes=67108864"
                                + "&tables=shop.orders");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/x-ndjson");
        assertThat(response.body().lines())
                .anySatisfy(
                        line ->
                                assertThat(line)
                                        .contains("\"op\":\"INSERT\"")
                                        .contains("\"table\":\"orders\"")
                                        .contains(
                                                "\"after\":{\"id\":2000,\"customer\":\"customer 2000\",\"total\":\"2000.25\"}"))
                .anySatisfy(line -> assertThat(line).contains("\"op\":\"END_OF_TRANSACTION\""));
    }

    @Test
    void shouldServeAJsonResponseOfManyChunksWholeAndInOrder() throws Exception {
        long before = relay.status().newestScn();
        MARIADB.server()
                .execute(
                        "INSERT INTO shop.orders SELECT seq, CONCAT('customer ', seq), seq + 0.25"
                                + " FROM shop.seq_10000_to_11999");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> countRows(before) >= 2_000);

        HttpResponse<String> response =
                client.getText(
                        "/v1/stream?timeoutMs=0&format=json&maxBytes=67108864&tables=shop.orders"
                                + "&from="
                                + before);

        assertThat(response.body().length())
                .as("several of the relay's 64 KiB chunks")
                .isGreaterThan(3 * 64 * 1024);
        List<Long> ids = new ArrayList<>();
        JsonFactory json = new JsonFactory();
        Pattern insertedId = Pattern.compile("\"op\":\"INSERT\".*\"after\":\\{\"id\":(\\d+),");
        for (String line : response.body().split("\n")) {
            try (JsonParser parser = json.createParser(line)) {
                while (parser.nextToken() != null) {
                    // every line one whole JSON value, none cut at a chunk's end
                }
            }
            Matcher insert = insertedId.matcher(line);
            if (insert.find()) {
                ids.add(Long.parseLong(insert.group(1)));
            }
        }
        assertThat(ids).hasSize(2_000).isSorted().startsWith(10_000L).endsWith(11_999L);
    }

    @Test
    void shouldReportStatusHealthAndPrometheusMetrics() throws Exception {
        insertOrders(3000, 1);
        HttpResponse<String> status = client.getText("/v1/status");
        HttpResponse<String> health = client.getText("/v1/health");
        HttpResponse<String> metrics = client.getText("/metrics");

        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(status.body())
                .contains("\"fetch\":{\"state\":\"RUNNING\"")
                .contains("\"timeline\":\"binlog:")
                .contains("\"buffer\":{\"oldestScn\":")
                .contains("\"lagMillis\":")
                .contains("\"lagScn\":");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"status\":\"UP\",\"fetcher\":\"RUNNING\"}");
        assertThat(metrics.body())
                .contains("changegrid_relay_published_transactions_total")
                .contains("changegrid_relay_buffer_bytes_used_bytes");
        assertThat(client.getText("/v1/status").statusCode()).isEqualTo(200);
    }

    @Test
    void shouldGzipTheStreamWhenTheClientAcceptsIt() throws Exception {
        insertOrders(4000, 20);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> countRows(-1) >= 20);
        HttpResponse<byte[]> plain = client.get("/v1/stream?from=-1&timeoutMs=0&maxBytes=67108864");

        HttpResponse<byte[]> gzipped =
                client.get(
                        "/v1/stream?from=-1&timeoutMs=0&maxBytes=67108864",
                        "Accept-Encoding",
                        "gzip");

        assertThat(gzipped.headers().firstValue("Content-Encoding")).contains("gzip");
        byte[] inflated =
                new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzipped.body()))
                        .readAllBytes();
        // The fetcher may publish (a heartbeat, say) between the two reads: the gzipped answer
        // holds the plain one's frames first.
        assertThat(StreamClient.frames(inflated))
                .startsWith(StreamClient.frames(plain.body()).toArray(new StreamClient.Frame[0]));
        assertThat(gzipped.body().length).isLessThan(plain.body().length);
    }

    @Test
    void shouldServeTheSchemasThatDecodeTheFrames() throws Exception {
        HttpResponse<String> all = client.getText("/v1/schemas");
        HttpResponse<String> one = client.getText("/v1/schemas?tableId=1&version=1");
        HttpResponse<String> missing = client.getText("/v1/schemas?tableId=999&version=1");

        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.body()).startsWith("{\"schemas\":[").contains("\"table\":\"orders\"");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(one.body()).startsWith("{\"tableId\":1,\"version\":1,");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("unknown schema: tableId=999, version=1");
    }

    private static long countRows(long from) throws Exception {
        HttpResponse<byte[]> response =
                client.get("/v1/stream?from=" + from + "&timeoutMs=0&maxBytes=67108864");
        return StreamClient.frames(response.body()).stream()
                .filter(f -> f.operationCode() <= Operation.DELETE.code())
                .count();
    }
}
