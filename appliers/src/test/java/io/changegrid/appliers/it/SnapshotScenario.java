package io.changegrid.appliers.it;

import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.CheckpointingCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.relay.Relay;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The parts of the snapshot ITs into the JDBC applier (docs/bootstrap.md): a table {@code (id int
 * key, balance bigint, note varchar)} on the source, a seeded writer that updates, inserts and
 * deletes its rows until stopped, a relay chunk hook that updates and deletes rows of every other
 * chunk between its watermarks, a callback that counts snapshot rows and completions around the
 * applier, and the ordered contents of a table with their MD5, to compare source and target.
 */
final class SnapshotScenario {

    /** Connections to the source, as its administrator. */
    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    private SnapshotScenario() {}

    /** Every other chunk: an update of its first row, a delete of its middle one, both logged. */
    static AtomicInteger hookWrites(Relay relay, Connection connection, String table) {
        AtomicInteger hooked = new AtomicInteger();
        AtomicInteger chunks = new AtomicInteger();
        relay.snapshots()
                .chunks()
                .hook(
                        (schema, rows) -> {
                            if (chunks.incrementAndGet() % 2 == 0 && rows.size() > 3) {
                                try (Statement s = connection.createStatement()) {
                                    s.execute(
                                            "UPDATE "
                                                    + table
                                                    + " SET balance = balance + 7, note = 'hooked'"
                                                    + " WHERE id = "
                                                    + rows.get(0)[0]);
                                    s.execute(
                                            "DELETE FROM "
                                                    + table
                                                    + " WHERE id = "
                                                    + rows.get(rows.size() / 2)[0]);
                                }
                                hooked.incrementAndGet();
                            }
                        });
        return hooked;
    }

    /** The rows of {@code table} as {@code id|balance|note}, by id. */
    static List<String> rows(Connection connection, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT id, balance, note FROM " + table + " ORDER BY id")) {
            while (result.next()) {
                rows.add(result.getInt(1) + "|" + result.getLong(2) + "|" + result.getString(3));
            }
        }
        return rows;
    }

    /** The MD5 of the rows, one per line: the checksum the ITs log and compare. */
    static String md5(List<String> rows) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("MD5");
        for (String row : rows) {
            digest.update(row.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Random single-row transactions on the table until stopped, seeded. */
    static final class Writer implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Connections connections;
        private final String table;
        private final int rows;
        private final Random random;
        private final boolean deletes;
        private int nextId;

        /**
         * @param deletes whether it deletes rows too (else inserts and updates only)
         */
        Writer(Connections connections, String table, int rows, long seed, boolean deletes) {
            this.connections = connections;
            this.table = table;
            this.rows = rows;
            this.random = new Random(seed);
            this.deletes = deletes;
            this.nextId = rows + 1 + random.nextInt(1000) * 1000;
        }

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
                        case 1 -> {
                            if (deletes) {
                                statement.execute("DELETE FROM " + table + " WHERE id = " + id);
                            }
                        }
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

        /** Runs {@link #run} on a new thread, started. */
        Thread start() {
            Thread thread = new Thread(this, "snapshot-writer");
            thread.start();
            return thread;
        }
    }

    /**
     * The applier as the consumer's callback, counting the snapshot rows it is handed and the
     * snapshot completions: everything else is the applier's.
     */
    static final class Watched implements CheckpointingCallback {
        final AtomicInteger snapshotRows = new AtomicInteger();
        final AtomicInteger completions = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();
        final AtomicInteger chunks = new AtomicInteger();

        /** The chunk (counted from 1) at whose start the callback fails, a crash; 0: none. */
        volatile int failAtChunk;

        private final JdbcApplier applier;

        Watched(JdbcApplier applier) {
            this.applier = applier;
        }

        @Override
        public CheckpointStore checkpointStore() {
            return applier.checkpointStore();
        }

        @Override
        public CallbackResult onStartBatch() {
            return applier.onStartBatch();
        }

        @Override
        public CallbackResult onStartTransaction(TransactionInfo transaction) {
            if (transaction.snapshotChunk() && chunks.incrementAndGet() == failAtChunk) {
                return CallbackResult.FAIL;
            }
            return applier.onStartTransaction(transaction);
        }

        @Override
        public CallbackResult onEvent(EventView event) {
            if (event.isSnapshot()) {
                snapshotRows.incrementAndGet();
            }
            return applier.onEvent(event);
        }

        @Override
        public CallbackResult onEndTransaction(TransactionInfo transaction) {
            return applier.onEndTransaction(transaction);
        }

        @Override
        public CallbackResult onSnapshotStart(String database, String table) {
            starts.incrementAndGet();
            return applier.onSnapshotStart(database, table);
        }

        @Override
        public CallbackResult onSnapshotComplete() {
            completions.incrementAndGet();
            return applier.onSnapshotComplete();
        }

        @Override
        public CallbackResult onEndBatch(Checkpoint checkpoint) {
            return applier.onEndBatch(checkpoint);
        }

        @Override
        public void onRollback(long checkpointScn) {
            applier.onRollback(checkpointScn);
        }
    }
}
