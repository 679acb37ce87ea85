package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The binlog client thread's work on a table map, which the server writes before the rows of every
 * statement: the stage-1 table's map ({@code bench.orders_0}, 14 columns) read by {@link
 * MariaDbTableMapDeserializer}, repeated with the same bytes (as a binlog repeats it: answered with
 * the object read the first time) and alternating between two versions of the table's map under one
 * table id, so that every read parses (the cost of every table map before the repeat was
 * recognised). Scores are per table map; {@code -prof gc} gives the allocation.
 *
 * <pre>
 * java -jar bench-jmh/target/benchmarks.jar TableMapBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TableMapBenchmark {

    private final MariaDbTableMapDeserializer reader = new MariaDbTableMapDeserializer();
    private final byte[] map = body(1000);
    private final byte[] widened = body(2000);
    private boolean flip;

    /** The same table map again: compared with the last one of its table id, not parsed. */
    @Benchmark
    public TableMapEventData repeated() throws IOException {
        return reader.deserialize(new ByteArrayInputStream(map));
    }

    /** A table map that differs from the last of its table id every time: read in full. */
    @Benchmark
    public TableMapEventData changed() throws IOException {
        flip = !flip;
        return reader.deserialize(new ByteArrayInputStream(flip ? map : widened));
    }

    /**
     * The body of the stage-1 table's map (table id 42): BIGINT, INT, INT, DECIMAL(12,2),
     * VARCHAR(12), CHAR(5), VARCHAR(40), DATETIME(6), TIMESTAMP(6), five VARCHAR(250) in utf8mb4
     * whose byte length is {@code noteBytes}.
     */
    private static byte[] body(int noteBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 6; i++) {
            out.write(i == 0 ? 42 : 0);
        }
        out.write(1); // flags
        out.write(0);
        name(out, "bench");
        name(out, "orders_0");
        byte[] types = {8, 3, 3, (byte) 246, 15, (byte) 254, 15, 18, 17, 15, 15, 15, 15, 15};
        out.write(types.length);
        out.writeBytes(types);
        ByteArrayOutputStream meta = new ByteArrayOutputStream();
        meta.writeBytes(new byte[] {12, 2}); // DECIMAL: precision, scale
        meta.writeBytes(new byte[] {48, 0}); // VARCHAR(12): max bytes
        meta.writeBytes(new byte[] {(byte) 0xFE, 20}); // CHAR(5): real type, max bytes
        meta.writeBytes(new byte[] {(byte) 160, 0}); // VARCHAR(40)
        meta.write(6); // DATETIME(6)
        meta.write(6); // TIMESTAMP(6)
        for (int i = 0; i < 5; i++) {
            meta.writeBytes(new byte[] {(byte) noteBytes, (byte) (noteBytes >>> 8)});
        }
        out.write(meta.size());
        out.writeBytes(meta.toByteArray());
        out.writeBytes(new byte[] {(byte) 0xFC, 0x3F}); // nullability: all but id and account
        return out.toByteArray();
    }

    private static void name(ByteArrayOutputStream out, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        out.write(bytes.length);
        out.writeBytes(bytes);
        out.write(0);
    }
}
