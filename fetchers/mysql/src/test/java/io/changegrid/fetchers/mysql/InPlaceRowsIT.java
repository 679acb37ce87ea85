package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix.TypeCase;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.policy.config.PolicyConfig;
import io.changegrid.testkit.MariaDbExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows read in place ({@link RowTranscoder}) are the rows the binlog library reads. Two fetchers
 * read the same binlog of a private server: one publishes every table unchanged, so its rows go
 * from the binlog's bytes straight into frames; the other has a policy whose predicate is true for
 * every row, so its rows are read in place into values, which the predicate sees and the encoder
 * encodes. Both must publish the same frames, byte for byte, and the same images as a third reader
 * of the binlog, a plain binlog client whose rows the library decodes cell by cell and {@link
 * RowConverter} converts, as the fetcher did before it read rows in place. The workload covers
 * every MariaDB type (the type matrix, whose ENUM, SET, JSON, BIT, TIME, YEAR, charset and
 * compressed columns are read by the library inside the in-place path) and the edges of the types
 * read in place: integer extremes signed and unsigned, DECIMALs of every group layout up to 18
 * digits and past it, negative and zero decimals, temporal precisions 0 to 6 and zero dates, one-
 * and two-byte length prefixes, empty and NULL strings, and BINARY padding.
 */
class InPlaceRowsIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final String MATRIX = "inplace.all_types";
    private static final String EDGES = "inplace.edges";
    private static final String SESSION = "SET SESSION sql_mode = '', SESSION time_zone = '+00:00'";

    private static final String EDGES_TABLE =
            "CREATE TABLE "
                    + EDGES
                    + " (id BIGINT PRIMARY KEY, t TINYINT, tu TINYINT UNSIGNED, s SMALLINT,"
                    + " su SMALLINT UNSIGNED, m MEDIUMINT, mu MEDIUMINT UNSIGNED, i INT NOT NULL,"
                    + " iu INT UNSIGNED, b BIGINT, bu BIGINT UNSIGNED, f FLOAT, d DOUBLE,"
                    + " d1 DECIMAL(1,0), d5 DECIMAL(5,5), d12 DECIMAL(12,2), d18 DECIMAL(18,0),"
                    + " d18s DECIMAL(18,9), d17 DECIMAL(17,8), d19 DECIMAL(19,4), d30 DECIMAL(30,10),"
                    + " dt DATE, t0 DATETIME, t1 DATETIME(1), t3 DATETIME(3), t6 DATETIME(6),"
                    + " ts0 TIMESTAMP NULL, ts2 TIMESTAMP(2) NULL, ts6 TIMESTAMP(6) NULL,"
                    + " c5 CHAR(5), c100 CHAR(100), v12 VARCHAR(12), v300 VARCHAR(300),"
                    + " tx TEXT, mt MEDIUMTEXT, bl BLOB, vb VARBINARY(20), bn BINARY(4),"
                    + " l1 VARCHAR(20) CHARACTER SET latin1)"
                    + " CHARACTER SET utf8mb4";

    @TempDir Path inPlaceState;
    @TempDir Path valuesState;

    @BeforeAll
    static void createSchema() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE inplace",
                        MariaDbTypeMatrix.createTable(MATRIX),
                        EDGES_TABLE);
    }

    @Test
    void shouldWriteTheSameFramesInPlaceAsFromValues() throws Exception {
        TableFilter capture = TableFilter.of(List.of("inplace.*"), List.of());
        CapturePlan everyRowThroughValues =
                CapturePlan.of(
                        PolicyConfig.parse(
                                YamlConfigFile.parse(
                                        """
                                        policies:
                                          - include: [inplace.*]
                                            where: id IS NOT NULL
                                        """,
                                        "test")),
                        CapturePlan.ALL_PARTITIONS,
                        "capture.partition");
        try (RunningFetcher inPlace =
                        RunningFetcher.start(
                                config(capture, CapturePlan.everything(), 9_101),
                                inPlaceState,
                                null);
                RunningFetcher values =
                        RunningFetcher.start(
                                config(capture, everyRowThroughValues, 9_102), valuesState, null)) {
            awaitConnected(inPlace);
            awaitConnected(values);
            LibraryReader library =
                    new LibraryReader(
                            config(capture, CapturePlan.everything(), 9_103),
                            ResumePosition.parse(inPlace.fetcher.position().resumePosition())
                                    .position(),
                            inPlace.fetcher);

            int rows = writeWorkload();

            inPlace.sink.awaitRowEvents(rows);
            values.sink.awaitRowEvents(rows);
            List<ChangeEvent> expectedImages = library.awaitRows(rows);
            library.close();
            List<ChangeEvent> published = inPlace.sink.rowEvents();
            for (int i = 0; i < rows; i++) {
                ChangeEvent want = expectedImages.get(i);
                ChangeEvent got = published.get(i);
                String row = "row " + i + " of " + want.schema().qualifiedName();
                assertThat(got.operation()).as(row).isEqualTo(want.operation());
                assertThat(got.before()).as(row).isEqualTo(want.before());
                assertThat(got.after()).as(row).isEqualTo(want.after());
            }
            List<byte[]> expected = values.sink.transactionFrames();
            List<byte[]> actual = inPlace.sink.transactionFrames();
            assertThat(actual).hasSameSizeAs(expected);
            for (int t = 0; t < expected.size(); t++) {
                assertThat(actual.get(t))
                        .as("transaction %d: %s", t, describe(values, t))
                        .isEqualTo(expected.get(t));
            }
            assertThat(inPlace.failure()).isNull();
            assertThat(values.failure()).isNull();
        }
    }

    /** Inserts, updates (every column, then the key) and deletes; returns the row events. */
    private static int writeWorkload() throws Exception {
        List<String> sql = new ArrayList<>(List.of(SESSION));
        int matrixRows = MariaDbTypeMatrix.rows();
        for (int i = 0; i < matrixRows; i++) {
            List<String> values = new ArrayList<>();
            for (TypeCase c : MariaDbTypeMatrix.CASES) {
                values.add(MariaDbTypeMatrix.value(c, i));
            }
            sql.add(
                    "INSERT INTO "
                            + MATRIX
                            + " VALUES ("
                            + i
                            + ", "
                            + String.join(", ", values)
                            + ")");
        }
        for (int i = 0; i < matrixRows; i++) {
            List<String> sets = new ArrayList<>();
            for (TypeCase c : MariaDbTypeMatrix.CASES) {
                sets.add("`" + c.name() + "` = " + MariaDbTypeMatrix.value(c, i + 1));
            }
            sql.add("UPDATE " + MATRIX + " SET " + String.join(", ", sets) + " WHERE id = " + i);
        }
        sql.add("UPDATE " + MATRIX + " SET id = id + 1000");
        sql.add("DELETE FROM " + MATRIX);
        int events = matrixRows * 4;

        List<String> edges = edgeRows();
        for (int i = 0; i < edges.size(); i++) {
            sql.add("INSERT INTO " + EDGES + " VALUES (" + i + ", " + edges.get(i) + ")");
        }
        sql.add(
                "UPDATE "
                        + EDGES
                        + " SET d12 = -d12, d18s = -d18s, v300 = CONCAT(v300, 'x'), t6 = NULL,"
                        + " bn = NULL, tx = '', i = i - 1");
        sql.add("UPDATE " + EDGES + " SET id = -id - 1");
        sql.add("DELETE FROM " + EDGES);
        events += edges.size() * 4;
        MARIADB.server().execute(sql.toArray(String[]::new));
        return events;
    }

    /** The edge values of the in-place types, one row each, and one row of NULLs. */
    private static List<String> edgeRows() {
        String big = "'" + "é".repeat(150) + "'";
        return List.of(
                "-128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0,"
                        + " -3.4e38, -1.7976931348623157e308, -9, -0.99999, -9999999999.99,"
                        + " -999999999999999999, -999999999.999999999, -999999999.99999999,"
                        + " -999999999999999.9999, -99999999999999999999.9999999999,"
                        + " '1000-01-01', '1000-01-01 00:00:00', '1000-01-01 00:00:00.1',"
                        + " '1000-01-01 00:00:00.001', '1000-01-01 00:00:00.000001',"
                        + " '1970-01-01 00:00:01', '1970-01-01 00:00:01.01',"
                        + " '1970-01-01 00:00:01.000001', '', '', '', '', '', '', '', '',"
                        + " 0x00000000, ''",
                "127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,"
                        + " 9223372036854775807, 18446744073709551615, 3.4e38,"
                        + " 1.7976931348623157e308, 9, 0.99999, 9999999999.99,"
                        + " 999999999999999999, 999999999.999999999, 999999999.99999999,"
                        + " 999999999999999.9999, 99999999999999999999.9999999999,"
                        + " '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59.9',"
                        + " '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.999999',"
                        + " '2038-01-19 03:14:07', '2038-01-19 03:14:07.99',"
                        + " '2038-01-19 03:14:07.999999', 'abcde', "
                        + big
                        + ", 'twelve chars', "
                        + "'"
                        + "ab\u00e9\uD83D\uDE00".repeat(60)
                        + "'"
                        + ", REPEAT('t', 70000), REPEAT('m', 70000), REPEAT(0xFF, 300),"
                        + " 0x00FF00, 0x01, 'caf\u00e9'",
                "0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0.00000001, 0.0001,"
                        + " 0.0000000001, '0000-00-00', '0000-00-00 00:00:00',"
                        + " '2024-00-15 12:00:00.5', '2024-02-29 12:34:56.789',"
                        + " '2024-02-29 12:34:56.000001', NULL, NULL, NULL, 'a', 'a ', 'a',"
                        + " 'trailing  ', 'x', 'y', 0x00, 0x0000, 0x0102, 'x'",
                "NULL, NULL, NULL, NULL, NULL, NULL, 5, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL",
                "-1, 128, -1, 32768, -1, 8388608, -1, 2147483648, -1, 9223372036854775808,"
                        + " 1.5, -2.25, -1, 0.5, -0.01, -1, -0.000000001, -0.00000001, -0.0001,"
                        + " -0.0000000001, '2000-02-29', '1999-12-31 23:59:59',"
                        + " '1999-12-31 23:59:59.9', '1999-12-31 23:59:59.999',"
                        + " '1999-12-31 23:59:59.999999', '2000-01-01 00:00:00',"
                        + " '2000-01-01 00:00:00.5', '2000-01-01 00:00:00.123456', '\u00e9', '',"
                        + " '\u00e9\u00e9', '', '', '', '', '', 0x00000001, 'a'");
    }

    /** A fetcher's configuration; each has its own replica server id, as two relays would. */
    private static BinlogFetcherConfig config(TableFilter capture, CapturePlan plan, int serverId) {
        BinlogFetcherConfig base =
                RunningFetcher.config(
                        MARIADB.server(), capture, new StartPosition.Current(), 64 << 20);
        return new BinlogFetcherConfig(
                base.host(),
                base.port(),
                base.user(),
                base.password(),
                serverId,
                base.sourceId(),
                capture,
                plan,
                base.start(),
                base.heartbeatInterval(),
                base.connectTimeout(),
                base.reconnectBackoffMax(),
                base.maxTransactionBytes());
    }

    private static void awaitConnected(RunningFetcher running) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                running.sink.all().stream()
                                                .anyMatch(CollectingSink.Published::isHeartbeat)
                                        || running.failure() != null);
        assertThat(running.failure()).isNull();
    }

    /** The first event of a transaction, for a failure message. */
    private static String describe(RunningFetcher running, int transaction) {
        List<CollectingSink.Published> published = running.sink.transactions();
        if (transaction >= published.size()) {
            return "missing";
        }
        ChangeEvent first = published.get(transaction).events().get(0);
        return first.operation() + " " + first.schema().qualifiedName() + " scn=" + first.scn();
    }

    /**
     * Reads the binlog with a plain binlog client and decodes the rows of the captured tables cell
     * by cell with the library, converted by {@link RowConverter}: the images as the fetcher made
     * them before it read rows in place. Each image goes through a frame and back, so that it is
     * compared in the values' canonical types.
     */
    private static final class LibraryReader implements AutoCloseable {
        private final BinaryLogClient client;
        private final Map<Long, String> tables = new HashMap<>();
        private final CellReader cells = LosslessRowDeserializers.cellReader();
        private final List<ChangeEvent> rows = new CopyOnWriteArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        LibraryReader(BinlogFetcherConfig config, BinlogPosition from, BinlogFetcher schemas)
                throws Exception {
            client = BinlogClientFactory.create(config, from, tableId -> false);
            client.registerEventListener(
                    event -> {
                        try {
                            read(event, schemas.sourceSchemas());
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
            client.connect(10_000);
        }

        private void read(Event event, SchemaRegistry schemas) throws Exception {
            if (event.getData() instanceof TableMapEventData map) {
                tables.put(map.getTableId(), map.getDatabase() + "." + map.getTable());
                cells.tableMap(map);
            }
            if (!(event.getData() instanceof BinlogRows binlogRows)) {
                return;
            }
            String[] name = tables.get(binlogRows.tableId()).split("\\.");
            if (!name[0].equals("inplace")) {
                return;
            }
            TableSchema schema = schemas.latest(name[0], name[1]).orElseThrow();
            RowConverter converter = new RowConverter(schema);
            ChangeEventDecoder decoder = new ChangeEventDecoder(schemas);
            FrameEncoder encoder = new FrameEncoder(1024);
            ByteArrayInputStream in = CellReader.stream(binlogRows);
            Operation op = binlogRows.operation();
            while (in.available() > 0) {
                Object[] before =
                        op == Operation.INSERT
                                ? null
                                : converter.convert(
                                        cells.row(
                                                binlogRows.tableId(),
                                                binlogRows.beforeColumns(),
                                                in),
                                        binlogRows.beforeColumns());
                Object[] after =
                        op == Operation.DELETE
                                ? null
                                : converter.convert(
                                        cells.row(
                                                binlogRows.tableId(),
                                                binlogRows.afterColumns(),
                                                in),
                                        binlogRows.afterColumns());
                encoder.buffer().clear();
                encoder.beginTransaction(1, 0, 0, "library");
                encoder.appendRowChange(op, schema, before, after);
                encoder.endTransaction();
                rows.add(decoder.decode(new EventFrame().wrap(encoder.buffer().byteBuffer(), 0)));
            }
        }

        List<ChangeEvent> awaitRows(int count) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> rows.size() >= count || failure.get() != null);
            assertThat(failure.get()).isNull();
            return List.copyOf(rows);
        }

        @Override
        public void close() throws IOException {
            client.disconnect();
        }
    }
}
