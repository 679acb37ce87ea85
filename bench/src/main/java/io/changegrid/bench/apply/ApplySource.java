package io.changegrid.bench.apply;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * A private MariaDB with the whitepaper's table ({@code bench.t1}: bigint key, two ints, a decimal,
 * a datetime, a timestamp, six varchar columns, about 1,100 bytes a row), loaded with
 * multi-row-insert transactions, and a relay in this JVM that has published all of it before any
 * consumer starts, so a run measures the consumer side only.
 */
final class ApplySource implements AutoCloseable {

    private static final String ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.-";

    private final MariaDbServer server;
    private final Relay relay;
    private final Path segments;
    private final long endScn;
    private final long rows;
    private final long transactions;
    private final long changes;
    private final TableChecksum.Sum sum;

    private ApplySource(
            MariaDbServer server,
            Relay relay,
            Path segments,
            long endScn,
            long rows,
            long[] load,
            TableChecksum.Sum sum) {
        this.server = server;
        this.relay = relay;
        this.segments = segments;
        this.endScn = endScn;
        this.rows = rows;
        this.transactions = load[0];
        this.changes = load[1];
        this.sum = sum;
    }

    /**
     * Starts the source and the relay, loads {@code rows} rows in transactions of {@code
     * rowsPerTransaction} inserts (with {@code updatePercent} of the transactions updating earlier
     * rows instead), and waits until the relay published the last one.
     */
    static ApplySource load(long rows, int rowsPerTransaction, int updatePercent, long seed)
            throws Exception {
        MariaDbServer server = MariaDbServer.start();
        Path segments = Files.createTempDirectory(Path.of("/dev/shm"), "apply-bench-relay");
        Relay relay = null;
        try {
            relay =
                    Relay.start(
                            RelaySettings.load(
                                    Map.of(),
                                    Map.ofEntries(
                                            Map.entry("source.host", server.host()),
                                            Map.entry(
                                                    "source.port", Integer.toString(server.port())),
                                            Map.entry("source.user", server.user()),
                                            Map.entry("source.password", server.password()),
                                            Map.entry("source.serverId", "7001"),
                                            Map.entry("buffer.capacity", "2GiB"),
                                            Map.entry("buffer.segmentSize", "64MiB"),
                                            Map.entry("buffer.storage", "mapped"),
                                            Map.entry("buffer.directory", segments.toString()),
                                            // Kept with the segments, removed with them at close.
                                            Map.entry(
                                                    "state.directory",
                                                    segments.resolve("state").toString()),
                                            Map.entry("http.port", "0"))));
            while (relay.buffer().newestScn() < 0) {
                LockSupport.parkNanos(10_000_000);
            }
            server.execute(
                    "CREATE DATABASE bench",
                    "CREATE TABLE bench.t1 (id BIGINT PRIMARY KEY, account INT NOT NULL,"
                            + " quantity INT, amount DECIMAL(12,2), created DATETIME(6),"
                            + " updated TIMESTAMP(6) NULL, text1 VARCHAR(255), text2 VARCHAR(255),"
                            + " text3 VARCHAR(255), text4 VARCHAR(255), text5 VARCHAR(255),"
                            + " text6 VARCHAR(255)) CHARACTER SET utf8mb4");
            long before = relay.status().transactionsAppended();
            long[] load = insert(server, rows, rowsPerTransaction, updatePercent, seed);
            long expected = before + load[0];
            while (relay.status().transactionsAppended() < expected) {
                LockSupport.parkNanos(20_000_000);
            }
            TableChecksum.Sum sum;
            try (Connection connection = server.connect()) {
                sum = TableChecksum.of(connection, false);
            }
            return new ApplySource(
                    server, relay, segments, relay.status().lastPublishedScn(), rows, load, sum);
        } catch (Exception | Error e) {
            if (relay != null) {
                relay.close();
            }
            server.close();
            throw e;
        }
    }

    /**
     * @return the transactions and the row changes committed
     */
    private static long[] insert(
            MariaDbServer server, long rows, int perTransaction, int updatePercent, long seed)
            throws SQLException {
        Random random = new Random(seed);
        StringBuilder sql = new StringBuilder("INSERT INTO bench.t1 VALUES ");
        for (int i = 0; i < perTransaction; i++) {
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        }
        String update =
                "UPDATE bench.t1 SET quantity = quantity + 1, amount = ?, text1 = ? WHERE id = ?";
        long transactions = 0;
        long changes = 0;
        try (Connection connection = server.connect();
                PreparedStatement insert = connection.prepareStatement(sql.toString());
                PreparedStatement change = connection.prepareStatement(update)) {
            connection.setAutoCommit(false);
            long id = 0;
            while (id < rows) {
                if (id > perTransaction && random.nextInt(100) < updatePercent) {
                    for (int i = 0; i < perTransaction; i++) {
                        change.setBigDecimal(1, BigDecimal.valueOf(random.nextInt(100_000_000), 2));
                        change.setString(2, text(random, 160));
                        change.setLong(3, 1 + (random.nextLong() & Long.MAX_VALUE) % id);
                        change.addBatch();
                    }
                    change.executeBatch();
                    changes += perTransaction;
                } else {
                    int p = 1;
                    for (int i = 0; i < perTransaction; i++) {
                        id++;
                        insert.setLong(p++, id);
                        insert.setInt(p++, random.nextInt(1_000_000));
                        insert.setInt(p++, random.nextInt(1000));
                        insert.setBigDecimal(
                                p++, BigDecimal.valueOf(random.nextInt(100_000_000), 2));
                        insert.setObject(
                                p++,
                                LocalDateTime.of(2018, 1, 1, 0, 0)
                                        .plusSeconds(random.nextInt(1 << 26)));
                        insert.setTimestamp(
                                p++,
                                Timestamp.valueOf(
                                        LocalDateTime.of(2019, 1, 1, 0, 0)
                                                .plusSeconds(random.nextInt(1 << 26))
                                                .plusNanos(random.nextInt(1_000_000) * 1000L)));
                        for (int t = 0; t < 6; t++) {
                            insert.setString(p++, text(random, 160));
                        }
                    }
                    insert.executeUpdate();
                    changes += perTransaction;
                }
                connection.commit();
                transactions++;
            }
        }
        return new long[] {transactions, changes};
    }

    private static String text(Random random, int length) {
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(text);
    }

    String relayUrl() {
        return "http://127.0.0.1:" + relay.httpPort();
    }

    /**
     * The SCN of the last loaded transaction: a run is done when the target's checkpoint has it.
     */
    long endScn() {
        return endScn;
    }

    /** Rows inserted (the table's final row count). */
    long rows() {
        return rows;
    }

    long transactions() {
        return transactions;
    }

    /** The source table's row count and checksum over all columns, after the load. */
    TableChecksum.Sum sum() {
        return sum;
    }

    /** Row changes committed: inserts and updates. */
    long changes() {
        return changes;
    }

    @Override
    public void close() throws java.io.IOException {
        relay.close();
        server.close();
        try (var files = Files.walk(segments)) {
            for (Path file :
                    (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(file);
            }
        }
    }
}
