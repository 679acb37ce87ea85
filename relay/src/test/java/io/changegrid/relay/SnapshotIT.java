package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.UnknownSchemaException;
import io.changegrid.protocol.SnapshotCursor;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.MariaDbExtension;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot in the stream against a private mariadbd (docs/bootstrap.md): a table of 50,000 rows
 * copied in chunks of 1,000 while a writer updates, inserts and deletes rows of it, and a chunk
 * hook writes to rows of the chunk just read, between its watermarks, for every other chunk. The
 * test's consumer speaks the HTTP protocol itself and keeps a replica of the table in memory the
 * way an applier seeds a target (snapshot rows and live inserts and updates are upserts, a delete
 * of a row not held is a no-op); after the snapshot completes and the writer stops, the replica
 * equals the source row for row.
 */
class SnapshotIT {

    private static final int ROWS = 50_000;
    private static final int CHUNK = 1_000;

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path state;

    @Test
    void shouldEndEqualToTheSourceWhenRowsChangeBetweenTheWatermarksOfChunks() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL,"
                                + " note VARCHAR(40))",
                        "INSERT INTO shop.accounts SELECT seq, seq * 10, CONCAT('n', seq)"
                                + " FROM shop.seq_1_to_"
                                + ROWS);
        long seed = System.nanoTime();
        System.out.println("SnapshotIT seed=" + seed);
        Config config = config();
        try (Relay relay = Relay.start(config);
                Connection hookConnection = MARIADB.server().connect()) {
            StreamClient client = new StreamClient(relay.httpPort());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> relay.buffer().newestScn() >= 0);
            AtomicInteger hooked = new AtomicInteger();
            AtomicInteger chunksRead = new AtomicInteger();
            relay.snapshots()
                    .chunks()
                    .hook(
                            (table, rows) -> {
                                if (chunksRead.incrementAndGet() % 2 == 0 && rows.size() > 3) {
                                    // Inside the window: the log's copy must win over the read.
                                    try (Statement s = hookConnection.createStatement()) {
                                        s.execute(
                                                "UPDATE shop.accounts SET balance = balance + 7,"
                                                        + " note = 'hooked' WHERE id = "
                                                        + rows.get(0)[0]);
                                        s.execute(
                                                "DELETE FROM shop.accounts WHERE id = "
                                                        + rows.get(rows.size() / 2)[0]);
                                        s.execute(
                                                "UPDATE shop.accounts SET note = 'hooked-last'"
                                                        + " WHERE id = "
                                                        + rows.get(rows.size() - 1)[0]);
                                    }
                                    hooked.incrementAndGet();
                                }
                            });
            Writer writer = new Writer(seed);
            Thread writing = new Thread(writer, "snapshot-it-writer");
            writing.start();
            Replica replica = new Replica(client);
            try {
                long from = relay.buffer().newestScn();
                String cursor = SnapshotCursor.START;
                int responses = 0;
                while (!cursor.equals(SnapshotCursor.COMPLETE)) {
                    HttpResponse<byte[]> response =
                            client.get(
                                    "/v1/stream?from="
                                            + from
                                            + "&maxBytes=1048576&snapshot="
                                            + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
                    assertThat(response.statusCode())
                            .as(new String(response.body(), StandardCharsets.UTF_8))
                            .isEqualTo(200);
                    replica.apply(response.body());
                    from = StreamClient.lastScn(response);
                    replica.lastScn = from;
                    cursor = response.headers().firstValue("X-Changegrid-Snapshot").orElseThrow();
                    assertThat(++responses).as("responses").isLessThan(10_000);
                }
                assertThat(replica.completed).isTrue();
            } finally {
                writer.stop.set(true);
                writing.join();
            }
            assertThat(writer.failure.get()).isNull();
            // The writer has stopped: a last row marks the source's end; read the stream to it.
            MARIADB.server().execute("INSERT INTO shop.accounts VALUES (-1, 0, 'end')");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!replica.rows.containsKey(-1)) {
                assertThat(System.nanoTime()).as("end marker streamed").isLessThan(deadline);
                HttpResponse<byte[]> response =
                        client.get(
                                "/v1/stream?from="
                                        + replica.lastScn
                                        + "&timeoutMs=1000&maxBytes=1048576");
                assertThat(response.statusCode()).isEqualTo(200);
                replica.apply(response.body());
                replica.lastScn = StreamClient.lastScn(response);
            }

            assertThat(hooked.get())
                    .as("chunks written between their watermarks")
                    .isGreaterThan(10);
            assertThat(writer.writes.get()).as("concurrent writes").isGreaterThan(100);
            assertThat(replica.snapshotRows).isGreaterThan(ROWS / 2);
            System.out.printf(
                    "SnapshotIT: chunks read=%d, hooked=%d, concurrent writes=%d, snapshot rows=%d,"
                            + " rows at end=%d%n",
                    chunksRead.get(),
                    hooked.get(),
                    writer.writes.get(),
                    replica.snapshotRows,
                    replica.rows.size());
            Map<Integer, String> source = sourceRows();
            assertThat(replica.rows.size()).isEqualTo(source.size());
            assertThat(replica.rows).isEqualTo(source);
        }
    }

    private Config config() {
        Map<String, String> settings = new HashMap<>();
        settings.put("source.host", MARIADB.server().host());
        settings.put("source.port", Integer.toString(MARIADB.server().port()));
        settings.put("source.user", MARIADB.server().user());
        settings.put("source.password", MARIADB.server().password());
        settings.put("source.serverId", "9301");
        settings.put("source.heartbeatInterval", "200ms");
        settings.put("buffer.capacity", "64MiB");
        settings.put("buffer.segmentSize", "4MiB");
        settings.put("state.directory", state.toString());
        settings.put("http.port", "0");
        settings.put("snapshot.chunkSize", Integer.toString(CHUNK));
        return RelaySettings.load(Map.of(), settings);
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

    /** Random single-row transactions on the table until stopped, seeded. */
    private static final class Writer implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Random random;
        private int nextId = ROWS + 1;

        Writer(long seed) {
            this.random = new Random(seed);
        }

        @Override
        public void run() {
            try (Connection connection = MARIADB.server().connect();
                    Statement statement = connection.createStatement()) {
                while (!stop.get()) {
                    int id = 1 + random.nextInt(ROWS);
                    switch (random.nextInt(4)) {
                        case 0 ->
                                statement.execute(
                                        "INSERT INTO shop.accounts VALUES ("
                                                + nextId++
                                                + ", 1, 'inserted')");
                        case 1 -> statement.execute("DELETE FROM shop.accounts WHERE id = " + id);
                        default ->
                                statement.execute(
                                        "UPDATE shop.accounts SET balance = balance + 1,"
                                                + " note = 'w"
                                                + writes.get()
                                                + "' WHERE id = "
                                                + id);
                    }
                    writes.incrementAndGet();
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }
    }

    /** The test's target: the table replicated in memory by the applier's rules. */
    private static final class Replica {
        final Map<Integer, String> rows = new HashMap<>();
        final SchemaRegistry schemas = new SchemaRegistry();
        final StreamClient client;
        final ChangeEventDecoder decoder = new ChangeEventDecoder(schemas);
        long lastScn = -1;
        int snapshotRows;
        boolean completed;

        Replica(StreamClient client) {
            this.client = client;
        }

        void apply(byte[] body) throws Exception {
            ByteBuffer bytes = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            List<StreamClient.Frame> checked = StreamClient.frames(body); // checksums
            EventFrame frame = new EventFrame();
            for (int at = 0; at < body.length; at += frame.length()) {
                frame.wrap(bytes, at);
                if (frame.isSnapshot()) {
                    if ((frame.flags() & FrameLayout.FLAG_SNAPSHOT_COMPLETE) != 0) {
                        completed = true;
                    }
                } else {
                    lastScn = frame.scn();
                }
                if (!frame.operation().isRowChange()) {
                    continue;
                }
                ChangeEvent event = decoder.decode(schemaOf(frame));
                int id = ((Long) event.key()[0]).intValue();
                if (event.operation() == Operation.DELETE) {
                    rows.remove(id);
                } else {
                    Object[] after = event.after();
                    rows.put(id, after[1] + "|" + after[2]);
                    if (frame.isSnapshot()) {
                        snapshotRows++;
                    }
                }
            }
            assertThat(checked).isNotNull();
        }

        private EventFrame schemaOf(EventFrame frame) throws Exception {
            try {
                schemas.schema(frame.tableId(), frame.schemaVersion());
            } catch (UnknownSchemaException e) {
                String json =
                        client.getText(
                                        "/v1/schemas?tableId="
                                                + frame.tableId()
                                                + "&version="
                                                + frame.schemaVersion())
                                .body();
                schemas.restore(SchemaJson.fromJson(json));
            }
            return frame;
        }
    }
}
