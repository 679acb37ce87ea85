package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.SnapshotCursor;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.MariaDbExtension;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot requests against two relays of one private mariadbd: a snapshot begun on one relay is
 * finished on the other from the cursor (any replica continues it), a paused relay reads no chunk
 * while live transactions go on, and bad requests are refused naming what is wrong.
 */
class SnapshotRequestsIT {

    private static final int ROWS = 5_000;

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir static Path state;

    private static Relay first;
    private static Relay second;

    @BeforeAll
    static void startRelays() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL,"
                                + " note VARCHAR(40))",
                        "INSERT INTO shop.accounts SELECT seq, seq * 10, CONCAT('n', seq)"
                                + " FROM shop.seq_1_to_"
                                + ROWS,
                        "CREATE TABLE shop.audit_log (line VARCHAR(80))",
                        "CREATE TABLE shop.pause_marks (id INT PRIMARY KEY, a VARCHAR(10),"
                                + " b VARCHAR(10))");
        first = Relay.start(config("first", 9_401, Map.of()));
        second = Relay.start(config("second", 9_402, Map.of("snapshot.maxRequests", "1")));
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> first.buffer().newestScn() >= 0 && second.buffer().newestScn() >= 0);
    }

    @AfterAll
    static void stopRelays() {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    @Test
    void shouldFinishOnAnotherReplicaWhenTheSnapshotMovesRelays() throws Exception {
        StreamClient one = new StreamClient(first.httpPort());
        StreamClient two = new StreamClient(second.httpPort());
        SnapshotRun.Replica replica = new SnapshotRun.Replica(one);
        long from = first.buffer().newestScn();
        String cursor = SnapshotCursor.START;
        // The first answer names the table (no chunk), the next two carry a chunk each.
        for (int request = 0; request < 3; request++) {
            HttpResponse<byte[]> response = snapshot(one, from, cursor, "tables=shop.accounts");
            replica.apply(response.body());
            from = StreamClient.lastScn(response);
            cursor = response.headers().firstValue("X-Changegrid-Snapshot").orElseThrow();
        }
        assertThat(replica.rows).hasSize(2_000);
        int requests = 0;
        while (!cursor.equals(SnapshotCursor.COMPLETE)) {
            HttpResponse<byte[]> response = snapshot(two, from, cursor, "tables=shop.accounts");
            assertThat(response.statusCode())
                    .as(new String(response.body(), StandardCharsets.UTF_8))
                    .isEqualTo(200);
            replica.apply(response.body());
            from = StreamClient.lastScn(response);
            cursor = response.headers().firstValue("X-Changegrid-Snapshot").orElseThrow();
            assertThat(++requests).isLessThan(100);
        }

        assertThat(replica.completed).isTrue();
        assertThat(replica.snapshotRows).isEqualTo(ROWS);
        assertThat(replica.rows).isEqualTo(sourceRows());
    }

    @Test
    void shouldServeLiveTransactionsAndNoChunkWhileSnapshotReadsArePaused() throws Exception {
        StreamClient client = new StreamClient(second.httpPort());
        String subscription = "tables=shop.accounts,shop.pause_marks";
        HttpResponse<byte[]> start =
                snapshot(client, second.buffer().newestScn(), SnapshotCursor.START, subscription);
        long from = StreamClient.lastScn(start);
        String cursor = start.headers().firstValue("X-Changegrid-Snapshot").orElseThrow();

        HttpResponse<String> pause = client.post(RelayApi.SNAPSHOT_PAUSE);
        try {
            assertThat(pause.statusCode()).isEqualTo(200);
            assertThat(pause.body()).isEqualTo("{\"paused\":true}");
            HttpResponse<String> get = client.getText(RelayApi.SNAPSHOT_PAUSE);
            assertThat(get.statusCode()).isEqualTo(405);
            assertThat(get.body()).contains("allowed=POST");
            assertThat(client.getText(RelayApi.STATUS).body())
                    .contains("\"snapshot\":{\"paused\":true}");

            // Live transactions go on while no chunk is read: every answer echoes the cursor.
            MARIADB.server().execute("INSERT INTO shop.pause_marks VALUES (1, 'a', 'b')");
            SnapshotRun.Replica replica = new SnapshotRun.Replica(client);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (replica.liveScns.isEmpty() && System.nanoTime() < deadline) {
                HttpResponse<byte[]> paused = poll(client, from, cursor, subscription);
                assertThat(paused.statusCode()).isEqualTo(200);
                assertThat(paused.headers().firstValue("X-Changegrid-Snapshot")).contains(cursor);
                replica.apply(paused.body());
                from = StreamClient.lastScn(paused);
            }
            assertThat(replica.liveScns).hasSize(1);
            assertThat(replica.rows).containsEntry(1, "a|b");
            assertThat(replica.snapshotRows).isZero();

            // A caught-up consumer of a paused snapshot waits as a long poll does (for a
            // heartbeat or its timeout), it does not spin.
            long started = System.nanoTime();
            for (int request = 0; request < 5; request++) {
                HttpResponse<byte[]> idle = poll(client, from, cursor, subscription);
                replica.apply(idle.body());
                from = StreamClient.lastScn(idle);
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                    .isGreaterThan(400);
            assertThat(replica.snapshotRows).isZero();
        } finally {
            client.post(RelayApi.SNAPSHOT_RESUME);
        }

        assertThat(client.getText(RelayApi.STATUS).body())
                .contains("\"snapshot\":{\"paused\":false}");
        HttpResponse<byte[]> resumed = snapshot(client, from, cursor, subscription);
        SnapshotRun.Replica replica = new SnapshotRun.Replica(client);
        replica.apply(resumed.body());
        assertThat(replica.snapshotRows).isEqualTo(1_000);
        assertThat(resumed.headers().firstValue("X-Changegrid-Snapshot")).isNotEqualTo(cursor);
    }

    @Test
    void shouldRefuseARequestBeyondMaxRequestsAndCountTheCopiesInServingMemory() throws Exception {
        StreamClient client = new StreamClient(second.httpPort());
        String subscription = "tables=shop.accounts";
        HttpResponse<byte[]> start =
                snapshot(client, second.buffer().newestScn(), SnapshotCursor.START, subscription);
        long from = StreamClient.lastScn(start);
        String cursor = start.headers().firstValue("X-Changegrid-Snapshot").orElseThrow();
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        second.snapshots()
                .chunks()
                .hook(
                        (table, rows) -> {
                            reading.countDown();
                            release.await(30, TimeUnit.SECONDS);
                        });
        try {
            // The second relay serves one snapshot request at once (snapshot.maxRequests=1).
            CompletableFuture<HttpResponse<byte[]>> held =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return snapshot(client, from, cursor, subscription);
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            });
            assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(servingMemoryUsed(client)).isEqualTo(3 << 20); // 3 x maxBytes
            HttpResponse<byte[]> refused = snapshot(client, from, cursor, subscription);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(new String(refused.body(), StandardCharsets.UTF_8))
                    .contains("too many snapshot requests at once: snapshot.maxRequests=1");

            release.countDown();
            HttpResponse<byte[]> served = held.get(30, TimeUnit.SECONDS);
            SnapshotRun.Replica replica = new SnapshotRun.Replica(client);
            replica.apply(served.body());
            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(replica.snapshotRows).isEqualTo(1_000);
        } finally {
            release.countDown();
            second.snapshots().chunks().hook(null);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> servingMemoryUsed(client) == 0);
        assertThat(snapshot(client, from, cursor, subscription).statusCode()).isEqualTo(200);
    }

    private static long servingMemoryUsed(StreamClient client) throws Exception {
        return client.getText("/metrics")
                .body()
                .lines()
                .filter(line -> line.startsWith("changegrid_relay_stream_memory_used_bytes "))
                .map(line -> (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
                .findFirst()
                .orElseThrow();
    }

    /** A snapshot request that waits at most 500 ms when there is nothing to answer. */
    private static HttpResponse<byte[]> poll(
            StreamClient client, long from, String cursor, String subscription) throws Exception {
        return snapshot(client, from, cursor, subscription + "&timeoutMs=500");
    }

    @Test
    void shouldRefuseByNameWhenASubscribedTableHasNoPrimaryKey() throws Exception {
        HttpResponse<byte[]> response =
                snapshot(
                        new StreamClient(first.httpPort()),
                        first.buffer().newestScn(),
                        SnapshotCursor.START,
                        "tables=shop.audit_log");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(new String(response.body(), StandardCharsets.UTF_8))
                .contains("snapshot needs a primary key: table=shop.audit_log");
    }

    @Test
    void shouldRefuseNamingTheParameterWhenTheCursorOrFormatIsBad() throws Exception {
        StreamClient client = new StreamClient(first.httpPort());
        long from = first.buffer().newestScn();

        HttpResponse<String> garbage = client.getText("/v1/stream?from=" + from + "&snapshot=v1:x");
        HttpResponse<String> json =
                client.getText("/v1/stream?from=" + from + "&snapshot=start&format=json");
        HttpResponse<String> complete =
                client.getText("/v1/stream?from=" + from + "&snapshot=complete");

        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(garbage.body()).contains("name=snapshot").contains("not a snapshot cursor");
        assertThat(json.statusCode()).isEqualTo(400);
        assertThat(json.body()).contains("name=format").contains("snapshots are served binary");
        assertThat(complete.statusCode()).isEqualTo(400);
        assertThat(complete.body()).contains("the snapshot is complete");
    }

    @Test
    void shouldCompleteAtOnceWhenTheSubscriptionHasNoTable() throws Exception {
        HttpResponse<byte[]> response =
                snapshot(
                        new StreamClient(first.httpPort()),
                        first.buffer().newestScn(),
                        SnapshotCursor.START,
                        "tables=nothing.here");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Changegrid-Snapshot"))
                .contains(SnapshotCursor.COMPLETE);
    }

    /** {@code subscription}: the request's query parameters besides from, maxBytes and snapshot. */
    private static HttpResponse<byte[]> snapshot(
            StreamClient client, long from, String cursor, String subscription) throws Exception {
        return client.get(
                "/v1/stream?from="
                        + from
                        + "&maxBytes=1048576&"
                        + subscription
                        + "&snapshot="
                        + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
    }

    private static Map<Integer, String> sourceRows() throws Exception {
        Map<Integer, String> rows = new HashMap<>();
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery("SELECT id, balance, note FROM shop.accounts")) {
            while (result.next()) {
                rows.put(result.getInt(1), result.getLong(2) + "|" + result.getString(3));
            }
        }
        return rows;
    }

    private static Config config(String name, long serverId, Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(more);
        settings.put("source.host", MARIADB.server().host());
        settings.put("source.port", Integer.toString(MARIADB.server().port()));
        settings.put("source.user", MARIADB.server().user());
        settings.put("source.password", MARIADB.server().password());
        settings.put("source.serverId", Long.toString(serverId));
        settings.put("source.heartbeatInterval", "200ms");
        settings.put("buffer.capacity", "16MiB");
        settings.put("buffer.segmentSize", "1MiB");
        settings.put("state.directory", state.resolve(name).toString());
        settings.put("http.port", "0");
        settings.put("snapshot.chunkSize", "1000");
        return RelaySettings.load(Map.of(), settings);
    }
}
