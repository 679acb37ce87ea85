package io.changegrid.bench.jmh.codec;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding cost of ~1,100-byte insert frames held off-heap, as the relay's event buffer holds them:
 * reading the header in place (what routing and filtering need), checking a frame (bounds and
 * CRC32C, what a consumer does with bytes from the wire), and decoding it into a {@link
 * ChangeEvent} (what an object-level callback pays).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FrameDecodeBenchmark {

    private static final int FRAMES = 1024;

    private ByteBuffer frames;
    private int[] offsets;
    private int limit;
    private final EventFrame frame = new EventFrame();
    private final CRC32C crc = new CRC32C();
    private ChangeEventDecoder decoder;
    private int next;

    @Setup
    public void setUp() {
        SchemaRegistry registry = new SchemaRegistry();
        TableSchema schema = WhitepaperRows.register(registry, 1);
        FrameEncoder encoder = new FrameEncoder(FRAMES * 1200);
        Random random = new Random(42);
        offsets = new int[FRAMES];
        encoder.beginTransaction(1, 1, 1_700_000_000_000_000L, "0-1-1");
        for (int i = 0; i < FRAMES; i++) {
            offsets[i] =
                    encoder.appendRowChange(
                            Operation.INSERT, schema, null, WhitepaperRows.row(random, i));
        }
        limit = encoder.buffer().position();
        frames = ByteBuffer.allocateDirect(limit).order(ByteOrder.LITTLE_ENDIAN);
        frames.put(encoder.buffer().byteBuffer().duplicate().limit(limit).position(0));
        frames.clear();
        decoder = new ChangeEventDecoder(registry);
    }

    /** Reads the fields a router or filter needs, in place: no allocation. */
    @Benchmark
    public long readHeader() {
        EventFrame f = frame.wrap(frames, nextOffset());
        return f.scn()
                + f.index()
                + f.partitionHash()
                + f.tableId()
                + f.operationCode()
                + f.length();
    }

    /** Bounds, header consistency and CRC32C of one frame. */
    @Benchmark
    public int checkFrame() {
        return FrameLayout.checkFrame(frames, nextOffset(), limit, crc);
    }

    /** Full decode into a {@link ChangeEvent} with typed values. */
    @Benchmark
    public void decodeToObjects(Blackhole hole) {
        hole.consume(decoder.decode(frame.wrap(frames, nextOffset())));
    }

    private int nextOffset() {
        int offset = offsets[next];
        next = (next + 1) & (FRAMES - 1);
        return offset;
    }
}
