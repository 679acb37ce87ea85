package io.changegrid.bench.jmh.codec;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding cost of one ~1,100-byte row change: the relay's per-event work when it turns a fetched
 * row into a frame (key image, row image, partition hash, CRC32C). Rows are pre-built so only
 * encoding is measured; a transaction is 10 events, as in the stage-1 workload's batches.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FrameEncodeBenchmark {

    private static final int ROWS = 1024;
    private static final int EVENTS_PER_TRANSACTION = 10;

    private TableSchema schema;
    private Object[][] rows;
    private Object[][] updated;
    private FrameEncoder encoder;
    private int next;
    private long scn;

    @Setup
    public void setUp() {
        schema = WhitepaperRows.register(new SchemaRegistry(), 1);
        Random random = new Random(42);
        rows = new Object[ROWS][];
        updated = new Object[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            rows[i] = WhitepaperRows.row(random, i);
            updated[i] = WhitepaperRows.row(random, i);
        }
        encoder = new FrameEncoder(1 << 20);
        encoder.beginTransaction(1, ++scn, 1_700_000_000_000_000L, "0-1-" + scn);
    }

    /** One insert frame (after image only). */
    @Benchmark
    public int encodeInsert() {
        return encode(Operation.INSERT, null, rows[next]);
    }

    /** One update frame (before and after images: about 2,100 bytes). */
    @Benchmark
    public int encodeUpdate() {
        return encode(Operation.UPDATE, rows[next], updated[next]);
    }

    private int encode(Operation op, Object[] before, Object[] after) {
        if (encoder.eventCount() == EVENTS_PER_TRANSACTION) {
            encoder.endTransaction();
            encoder.buffer().clear();
            encoder.beginTransaction(1, ++scn, 1_700_000_000_000_000L, "0-1-" + scn);
        }
        int offset = encoder.appendRowChange(op, schema, before, after);
        next = (next + 1) & (ROWS - 1);
        return offset;
    }
}
