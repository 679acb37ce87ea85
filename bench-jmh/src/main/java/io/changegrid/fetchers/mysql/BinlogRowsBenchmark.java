package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.RowImages;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.mysql.schema.DatabaseDefinition;
import io.changegrid.fetchers.mysql.schema.SchemaSnapshot;
import io.changegrid.fetchers.mysql.schema.SchemaTracker;
import io.changegrid.fetchers.mysql.schema.ServerDialect;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import io.changegrid.policy.config.PolicyConfig;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The binlog fetcher's per-event work after the library handed it a rows event: rows of the stage-1
 * table (~1,100-byte rows, {@code bench} schema) read in place from the rows event's bytes by
 * {@link RowTranscoder} and encoded into frames with their CRC32C by the {@link TransactionWriter},
 * a transaction of {@link #ROWS} rows per invocation: pass-through inserts and updates, and the
 * stage-1 policy chain ({@code bench/policies/chain.yaml}) in place and through values (the path
 * before issue 22). Scores are per row change; {@code -prof gc} gives the allocation per row.
 *
 * <pre>
 * java -jar bench-jmh/target/benchmarks.jar BinlogRowsBenchmark -prof gc
 * </pre>
 *
 * <p>In this package to reach the fetcher's package-private transcoder; nothing here is a server.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BinlogRowsBenchmark {

    static final int ROWS = 100;

    private static final String TABLE =
            "CREATE TABLE orders_0 (id BIGINT PRIMARY KEY, account INT NOT NULL, quantity INT,"
                    + " amount DECIMAL(12,2), status VARCHAR(12), code CHAR(5), name VARCHAR(40),"
                    + " created DATETIME(6), updated TIMESTAMP(6) NULL, note1 VARCHAR(250),"
                    + " note2 VARCHAR(250), note3 VARCHAR(250), note4 VARCHAR(250),"
                    + " note5 VARCHAR(250)) CHARACTER SET utf8mb4";

    private static final String CHAIN =
            """
            policies:
              - name: whitepaper-chain
                include: [bench.*]
                where: "quantity >= 1 AND status IS NOT NULL"
                transform:
                  mask:
                    name: {hash: {salt: changegrid-bench}}
                  add:
                    src_db: {source: database}
            """;

    private BinlogRows inserts;
    private BinlogRows updates;
    private RowTranscoder transcoder;
    private TableRoute passThrough;
    private TableRoute chain;
    private final TransactionWriter writer = new TransactionWriter(1, 256 * 1024);

    @Setup
    public void setUp() {
        SchemaTracker tracker =
                SchemaTracker.fromSnapshot(
                        new SchemaSnapshot(
                                ServerDialect.mariaDb("utf8mb4"),
                                List.of(new DatabaseDefinition("bench", "utf8mb4")),
                                List.of(),
                                List.of()),
                        new SchemaRegistry());
        tracker.apply("bench", TABLE);
        TableSchema schema = tracker.table("bench", "orders_0").orElseThrow();
        TableMapEventData map = new TableMapEventData();
        map.setTableId(42);
        map.setDatabase("bench");
        map.setTable("orders_0");
        map.setColumnTypes(
                new byte[] {8, 3, 3, (byte) 246, 15, (byte) 254, 15, 18, 17, 15, 15, 15, 15, 15});
        map.setColumnMetadata(
                new int[] {
                    0,
                    0,
                    0,
                    2 << 8 | 12,
                    48,
                    0xFE << 8 | 20,
                    160,
                    6,
                    6,
                    1000,
                    1000,
                    1000,
                    1000,
                    1000
                });
        transcoder =
                RowTranscoder.of(
                        new RowConverter(schema), map, LosslessRowDeserializers.cellReader());
        if (transcoder == null) {
            throw new IllegalStateException("the stage-1 table is not read in place");
        }
        ByteArrayOutputStream insertImages = new ByteArrayOutputStream();
        ByteArrayOutputStream updateImages = new ByteArrayOutputStream();
        for (int i = 0; i < ROWS; i++) {
            byte[] row = row(i, 0);
            insertImages.writeBytes(row);
            updateImages.writeBytes(row);
            updateImages.writeBytes(row(i, 1));
        }
        BitSet all = new BitSet();
        all.set(0, schema.columnCount());
        byte[] insertBytes = insertImages.toByteArray();
        byte[] updateBytes = updateImages.toByteArray();
        inserts = new BinlogRows(Operation.INSERT, 42, null, all, insertBytes, insertBytes.length);
        updates = new BinlogRows(Operation.UPDATE, 42, all, all, updateBytes, updateBytes.length);
        passThrough =
                new CaptureRouter(TableFilter.all(), CapturePlan.everything(), tracker.registry())
                        .route(schema);
        chain =
                new CaptureRouter(
                                TableFilter.all(),
                                CapturePlan.of(
                                        PolicyConfig.parse(YamlConfigFile.parse(CHAIN, "bench")),
                                        CapturePlan.ALL_PARTITIONS,
                                        "capture.partition"),
                                tracker.registry())
                        .route(schema);
    }

    /** Pass-through inserts: binlog bytes straight into frames. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int insertPassThrough() {
        writer.open(1, 1, "0-1-1");
        for (int at = 0; at < inserts.length(); ) {
            at = transcoder.readAfter(inserts, at);
            writer.appendRow(passThrough, Operation.INSERT, (RowImages) transcoder);
        }
        writer.end();
        return writer.length();
    }

    /** Pass-through updates: before and after images, the key from the after image. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int updatePassThrough() {
        writer.open(1, 1, "0-1-1");
        for (int at = 0; at < updates.length(); ) {
            at = transcoder.readBefore(updates, at);
            at = transcoder.readAfter(updates, at);
            writer.appendRow(passThrough, Operation.UPDATE, (RowImages) transcoder);
        }
        writer.end();
        return writer.length();
    }

    /** The policy chain, values only for what it reads and computes, the rest in place. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int insertChainInPlace() {
        writer.open(1, 1, "0-1-1");
        for (int at = 0; at < inserts.length(); ) {
            at = transcoder.readAfter(inserts, at);
            writer.appendRow(chain, Operation.INSERT, transcoder);
        }
        writer.end();
        return writer.length();
    }

    /**
     * The policy chain on updates in place: both images masked, the masked column unchanged by the
     * update (the row's name), as most updates leave it.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int updateChainInPlace() {
        writer.open(1, 1, "0-1-1");
        for (int at = 0; at < updates.length(); ) {
            at = transcoder.readBefore(updates, at);
            at = transcoder.readAfter(updates, at);
            writer.appendRow(chain, Operation.UPDATE, transcoder);
        }
        writer.end();
        return writer.length();
    }

    /** The policy chain through whole images as values, as before issue 22. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int insertChainValues() {
        writer.open(1, 1, "0-1-1");
        for (int at = 0; at < inserts.length(); ) {
            at = transcoder.readAfter(inserts, at);
            writer.appendRow(chain, Operation.INSERT, null, transcoder.values(true));
        }
        writer.end();
        return writer.length();
    }

    /** One row image of the stage-1 table as the server's pack_row writes it. */
    private static byte[] row(int id, int version) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0); // NULL bitmap of 14 columns: none NULL
        out.write(0);
        littleEndian(out, 1_000_000L + id, 8);
        littleEndian(out, 7_000 + id % 100, 4);
        littleEndian(out, 1 + (id + version) % 3, 4);
        // DECIMAL(12,2) 40.25: 1 leading digit byte, one 9-digit group, 2 fraction digits; sign
        // bit.
        out.writeBytes(new byte[] {(byte) 0x80, 0, 0, 0, 40, 25});
        text(out, version == 0 ? "new" : "shipped", 1);
        text(out, "ABCDE", 1);
        text(out, "JOMUNA" + id, 1);
        LocalDateTime created = LocalDateTime.of(2020, 5, 17, 13, 45, 12);
        long ymd =
                ((created.getYear() * 13L + created.getMonthValue()) << 5)
                        | created.getDayOfMonth();
        long hms = (created.getHour() << 12) | (created.getMinute() << 6) | created.getSecond();
        bigEndian(out, ((ymd << 17) | hms) + 0x80_0000_0000L, 5);
        bigEndian(out, 123_456, 3);
        bigEndian(out, created.toEpochSecond(ZoneOffset.UTC) + version, 4);
        bigEndian(out, 654_321, 3);
        for (int note = 0; note < 5; note++) {
            text(out, ("lorem ipsum dolor sit amet " + id + " ").repeat(7), 2);
        }
        return out.toByteArray();
    }

    private static void text(ByteArrayOutputStream out, String text, int prefix) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        littleEndian(out, bytes.length, prefix);
        out.writeBytes(bytes);
    }

    private static void littleEndian(ByteArrayOutputStream out, long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (value >>> (8 * i)));
        }
    }

    private static void bigEndian(ByteArrayOutputStream out, long value, int bytes) {
        for (int i = bytes - 1; i >= 0; i--) {
            out.write((int) (value >>> (8 * i)));
        }
    }
}
