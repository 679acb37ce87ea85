package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.UnknownSchemaException;
import io.changegrid.protocol.SnapshotCursor;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/**
 * The snapshot scenario of {@link SnapshotIT} (MariaDB) and {@link PostgresSnapshotIT}, for any
 * source (docs/bootstrap.md): a table {@code (id int key, balance bigint, note text)} of {@code
 * rows} rows snapshotted while a seeded writer updates, inserts and deletes rows of it, and a chunk
 * hook updates and deletes rows of every other chunk just read, between its watermarks. The test's
 * consumer speaks the HTTP protocol itself and keeps a replica of the table in memory the way an
 * applier seeds a target (snapshot rows and live inserts and updates are upserts, a delete of a row
 * not held is a no-op); after the snapshot completes and the writer stops, the replica must equal
 * the source row for row.
 */
final class SnapshotRun {

    /** Connections to the source, as its administrator. */
    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    /** What a run did, for the test's assertions and its log line. */
    record Outcome(
            int chunksRead,
            int chunksHooked,
            int concurrentWrites,
            int snapshotRows,
            Map<Integer, String> replica,
            Map<Integer, String> source,
            SortedSet<Long> chunkScns,
            SortedSet<Long> liveScns) {}

    private final Relay relay;
    private final Connections connections;
    private final String table;
    private final int rows;
    private final long seed;

    /**
     * @param table the table as SQL names it on the source, e.g. {@code shop.accounts}
     */
    SnapshotRun(Relay relay, Connections connections, String table, int rows, long seed) {
        this.relay = relay;
        this.connections = connections;
        this.table = table;
        this.rows = rows;
        this.seed = seed;
    }

    Outcome run() throws Exception {
        StreamClient client = new StreamClient(relay.httpPort());
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() >= 0);
        AtomicInteger hooked = new AtomicInteger();
        AtomicInteger chunksRead = new AtomicInteger();
        try (Connection hookConnection = connections.open()) {
            relay.snapshots()
                    .chunks()
                    .hook(
                            (schema, chunk) -> {
                                if (chunksRead.incrementAndGet() % 2 == 0 && chunk.size() > 3) {
                                    // Inside the window: the log's copy must win over the read.
                                    try (Statement s = hookConnection.createStatement()) {
                                        s.execute(
                                                "UPDATE "
                                                        + table
                                                        + " SET balance = balance + 7,"
                                                        + " note = 'hooked' WHERE id = "
                                                        + chunk.get(0)[0]);
                                        s.execute(
                                                "DELETE FROM "
                                                        + table
                                                        + " WHERE id = "
                                                        + chunk.get(chunk.size() / 2)[0]);
                                        s.execute(
                                                "UPDATE "
                                                        + table
                                                        + " SET note = 'hooked-last'"
                                                        + " WHERE id = "
                                                        + chunk.get(chunk.size() - 1)[0]);
                                    }
                                    hooked.incrementAndGet();
                                }
                            });
            Writer writer = new Writer();
            Thread writing = new Thread(writer, "snapshot-writer");
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
                assertThat(replica.completed).as("complete flag seen").isTrue();
            } finally {
                writer.stop.set(true);
                writing.join();
                relay.snapshots().chunks().hook(null);
            }
            assertThat(writer.failure.get()).as("writer failure").isNull();
            // The writer has stopped: a last row marks the source's end; read the stream to it.
            try (Connection connection = connections.open();
                    Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO " + table + " VALUES (-1, 0, 'end')");
            }
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
            return new Outcome(
                    chunksRead.get(),
                    hooked.get(),
                    writer.writes.get(),
                    replica.snapshotRows,
                    replica.rows,
                    sourceRows(),
                    replica.chunkScns,
                    replica.liveScns);
        }
    }

    private Map<Integer, String> sourceRows() throws SQLException {
        Map<Integer, String> source = new HashMap<>();
        try (Connection connection = connections.open();
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery("SELECT id, balance, note FROM " + table)) {
            while (result.next()) {
                source.put(result.getInt(1), result.getLong(2) + "|" + result.getString(3));
            }
        }
        return source;
    }

    /** Random single-row transactions on the table until stopped, seeded. */
    private final class Writer implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Random random = new Random(seed);
        private int nextId = rows + 1;

        @Override
        public void run() {
            try (Connection connection = connections.open();
                    Statement statement = connection.createStatement()) {
                while (!stop.get()) {
                    int id = 1 + random.nextInt(rows);
                    switch (random.nextInt(4)) {
                        case 0 ->
                                statement.execute(
                                        "INSERT INTO "
                                                + table
                                                + " VALUES ("
                                                + nextId++
                                                + ", 1, 'inserted')");
                        case 1 -> statement.execute("DELETE FROM " + table + " WHERE id = " + id);
                        default ->
                                statement.execute(
                                        "UPDATE "
                                                + table
                                                + " SET balance = balance + 1, note = 'w"
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
    static final class Replica {
        final Map<Integer, String> rows = new HashMap<>();
        final SchemaRegistry schemas = new SchemaRegistry();
        final StreamClient client;
        final ChangeEventDecoder decoder = new ChangeEventDecoder(schemas);
        long lastScn = -1;
        int snapshotRows;

        /** The SCNs of the snapshot chunks' frames: their high watermarks. */
        final SortedSet<Long> chunkScns = new TreeSet<>();

        /** The SCNs of the live row changes. */
        final SortedSet<Long> liveScns = new TreeSet<>();

        boolean completed;

        Replica(StreamClient client) {
            this.client = client;
        }

        void apply(byte[] body) throws Exception {
            StreamClient.frames(body); // checks every frame's checksum and layout
            ByteBuffer bytes = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            EventFrame frame = new EventFrame();
            for (int at = 0; at < body.length; at += frame.length()) {
                frame.wrap(bytes, at);
                if (frame.isSnapshot()
                        && (frame.flags() & FrameLayout.FLAG_SNAPSHOT_COMPLETE) != 0) {
                    completed = true;
                }
                if (!frame.operation().isRowChange()) {
                    continue;
                }
                (frame.isSnapshot() ? chunkScns : liveScns).add(frame.scn());
                ensureSchema(frame);
                ChangeEvent event = decoder.decode(frame);
                int id = ((Number) event.key()[0]).intValue();
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
        }

        private void ensureSchema(EventFrame frame) throws Exception {
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
        }
    }
}
