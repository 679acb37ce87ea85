package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDBC applier writes a source transaction many times larger than the consumer's buffer and
 * than its {@code maxRows}, delivered in parts (issue 20, section 3), into one PostgreSQL
 * transaction: it flushes rows as the parts come and commits once, with its checkpoint, at the end;
 * the target equals the source by checksum.
 *
 * <p>Scaled for {@code mvn verify}: 16 MiB through 1 MiB relay segments into a 2 MiB consumer
 * buffer. Larger by hand: {@code -Dchangegrid.transactionParts.bytes=...} (and {@code .segment},
 * {@code .relayCapacity}, {@code .consumerBuffer}, {@code .fetch}).
 */
class TransactionPartsApplierIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final long TRANSACTION_BYTES = bytes(property("bytes", "16m"));
    private static final int ROW_BYTES = 8_000;
    private static final int ROWS = (int) (TRANSACTION_BYTES / ROW_BYTES);
    private static final int MAX_ROWS = 200;

    @TempDir Path relayState;

    @Test
    void shouldCommitATransactionInPartsOnceAtItsEndWhenItIsLargerThanTheBuffer() throws Exception {
        SOURCE.server()
                .execute(
                        "CREATE DATABASE big",
                        "CREATE TABLE big.blobs (id INT PRIMARY KEY, data MEDIUMBLOB)");
        Target target = Target.of(POSTGRES.database());
        target.execute(
                "CREATE SCHEMA big", "CREATE TABLE big.blobs (id integer PRIMARY KEY, data bytea)");
        try (Relay relay =
                        Pipeline.startRelay(
                                SOURCE.server(),
                                relayState,
                                9_811,
                                Map.of(
                                        "buffer.transactionParts", "true",
                                        "buffer.segmentSize", property("segment", "1MiB"),
                                        "buffer.capacity", property("relayCapacity", "48MiB")));
                JdbcApplier applier =
                        JdbcApplier.open(
                                ApplierOptions.builder(target.url())
                                        .credentials(target.user(), target.password())
                                        .consumerGroup("big")
                                        .maxRows(MAX_ROWS)
                                        .build());
                Consumer consumer =
                        Consumer.builder()
                                .name("applier-big")
                                .relays(Pipeline.url(relay))
                                .subscription(Subscription.tables("big.*"))
                                .bufferCapacity(bytes(property("consumerBuffer", "2m")))
                                .fetchMaxBytes(bytes(property("fetch", "512k")))
                                .pollTimeout(Duration.ofSeconds(2))
                                .batching(100, Duration.ofMillis(20))
                                .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
                                .callback(applier)
                                .checkpointStore(applier.checkpointStore())
                                .build()) {
            consumer.start();
            load();
            long commitsBefore = applier.commits();
            long started = System.nanoTime();
            String expected = checksum(SOURCE.server().connect("big"));
            Pipeline.awaitUntil(
                    consumer,
                    () -> {
                        try (Connection connection = target.connect()) {
                            return checksum(connection).equals(expected);
                        } catch (SQLException e) {
                            return false;
                        }
                    },
                    Duration.ofSeconds(Math.max(60, TRANSACTION_BYTES >> 23)));
            System.out.printf(
                    Locale.ROOT,
                    "TransactionPartsApplierIT bytes=%d, rows=%d, millis=%d, commits=%d,"
                            + " rowsApplied=%d%n",
                    TRANSACTION_BYTES,
                    ROWS,
                    (System.nanoTime() - started) / 1_000_000,
                    applier.commits() - commitsBefore,
                    applier.rowsApplied());
            assertThat(applier.rowsApplied()).isGreaterThanOrEqualTo(ROWS);
            assertThat(applier.commits() - commitsBefore)
                    .as("no commit inside the transaction (%d rows, maxRows %d)", ROWS, MAX_ROWS)
                    .isLessThan(ROWS / MAX_ROWS / 2);
        }
    }

    /**
     * One transaction: rows 1..ROWS inserted, the first hundred updated, the next fifty deleted;
     * then a small one.
     */
    private static void load() throws SQLException {
        try (Connection connection = SOURCE.server().connect("big");
                Statement statement = connection.createStatement();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO blobs VALUES (?, ?)")) {
            connection.setAutoCommit(false);
            for (int id = 1; id <= ROWS; id++) {
                insert.setInt(1, id);
                insert.setBytes(2, data(id, ROW_BYTES));
                insert.addBatch();
                if (id % 100 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
            statement.execute("UPDATE blobs SET data = REVERSE(data) WHERE id <= 100");
            statement.execute("DELETE FROM blobs WHERE id > 100 AND id <= 150");
            connection.commit();
            connection.setAutoCommit(true);
            statement.execute("INSERT INTO blobs VALUES (" + (ROWS + 1) + ", 'small')");
        }
    }

    private static byte[] data(int id, int length) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (id * 31 + i);
        }
        return data;
    }

    /** The row count and a CRC of every row's id and data, in id order. */
    private static String checksum(Connection connection) throws SQLException {
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("SELECT id, data FROM big.blobs ORDER BY id")) {
            CRC32C crc = new CRC32C();
            long count = 0;
            while (rows.next()) {
                crc.update(Integer.toString(rows.getInt(1)).getBytes());
                crc.update(rows.getBytes(2));
                count++;
            }
            return count + "/" + Long.toHexString(crc.getValue());
        }
    }

    private static String property(String name, String fallback) {
        return System.getProperty("changegrid.transactionParts." + name, fallback);
    }

    private static long bytes(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("ib", "");
        long unit = 1;
        if (t.endsWith("g")) {
            unit = 1L << 30;
        } else if (t.endsWith("m")) {
            unit = 1L << 20;
        } else if (t.endsWith("k")) {
            unit = 1L << 10;
        }
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }
}
