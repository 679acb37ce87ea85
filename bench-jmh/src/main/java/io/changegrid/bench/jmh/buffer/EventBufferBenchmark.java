package io.changegrid.bench.jmh.buffer;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.buffer.EventBufferReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The relay's event buffer under the whitepaper's load: transactions of 10 inserts of ~1,100-byte
 * frames (about 11 KB with the END_OF_TRANSACTION frame).
 *
 * <ul>
 *   <li>{@code append}: the publisher's side, one transaction per operation, into a 512 MiB buffer
 *       of 64 MiB segments that it wraps and evicts every second or so.
 *   <li>{@code read}: one reader copying whole transactions into a 64 KiB destination (an HTTP
 *       response chunk) from a full buffer, continuing from its cursor; when it reaches the newest
 *       transaction it starts over from the oldest, which costs one index seek.
 *   <li>{@code pin}: the same walk, pinning up to 64 KiB of whole transactions in the buffer's
 *       memory and releasing the pin, instead of copying them: what a relay's binary response of
 *       the whole stream costs the buffer when it is sent in place.
 * </ul>
 *
 * <p>The {@code events} and {@code bytes} counters are per second. The JVM runs with the heap the
 * whitepaper's relay gets (512 MB) and direct memory for the buffer; {@code storage=mapped} maps
 * its segments from {@code /dev/shm} (or the temp directory where there is none).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:MaxDirectMemorySize=1g"})
public class EventBufferBenchmark {

    static final int EVENTS_PER_TRANSACTION = 10;
    static final int SEGMENT_BYTES = 64 << 20;
    static final long CAPACITY_BYTES = 8L * SEGMENT_BYTES;

    /** A buffer and one encoded transaction whose SCN is rewritten for every append. */
    @State(Scope.Thread)
    public static class Writer {

        @Param({"direct", "mapped"})
        public String storage;

        EventBuffer buffer;
        ByteBuffer transaction;
        int length;
        int[] frameOffsets;
        long scn;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            buffer = new EventBuffer(config(storage));
            FrameEncoder encoder = encodeTransaction();
            transaction = encoder.buffer().byteBuffer();
            length = encoder.buffer().position();
            frameOffsets = frameOffsets(transaction, length);
        }

        /** The next transaction: only its SCN changes (its checksums go stale; nothing checks). */
        long append() {
            scn++;
            for (int offset : frameOffsets) {
                transaction.putLong(offset + FrameLayout.SCN_OFFSET, scn);
            }
            return buffer.append(scn, transaction, 0, length);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            buffer.close();
        }
    }

    /** A full buffer (no writer running) and one reader going through it again and again. */
    @State(Scope.Thread)
    public static class Reader {

        @Param({"direct", "mapped"})
        public String storage;

        final Writer writer = new Writer();
        EventBufferReader reader;
        ByteBuffer destination = ByteBuffer.allocateDirect(64 * 1024);
        long checkpoint;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            writer.storage = storage;
            writer.setUp();
            // Fill the buffer until it evicted once: every later read is from a full log.
            while (writer.buffer.segmentsEvicted() == 0) {
                writer.append();
            }
            writer.buffer.allowPins(1);
            reader = writer.buffer.newReader();
            checkpoint = writer.buffer.highestEvictedScn();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            writer.tearDown();
        }
    }

    /** Events and bytes moved, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Moved {
        public long events;
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            events = 0;
            bytes = 0;
        }
    }

    @Benchmark
    public long append(Writer writer, Moved moved) {
        long tail = writer.append();
        moved.events += EVENTS_PER_TRANSACTION;
        moved.bytes += writer.length;
        return tail;
    }

    @Benchmark
    public int read(Reader state, Moved moved) {
        state.destination.clear();
        int result = state.reader.read(state.checkpoint, state.destination);
        if (result > 0) {
            state.checkpoint = state.reader.lastScn();
            moved.events += (long) result * EVENTS_PER_TRANSACTION;
            moved.bytes += state.reader.bytesCopied();
        } else if (result == EventBufferReader.NOTHING_YET) {
            // At the newest: start over from the oldest still held.
            state.checkpoint = state.writer.buffer.highestEvictedScn();
        } else {
            throw new IllegalStateException("unexpected read result: result=" + result);
        }
        return result;
    }

    @Benchmark
    public int pin(Reader state, Moved moved) {
        int result = state.reader.pin(state.checkpoint, state.destination.capacity());
        if (result > 0) {
            state.reader.pinned().release();
            state.checkpoint = state.reader.lastScn();
            moved.events += (long) result * EVENTS_PER_TRANSACTION;
            moved.bytes += state.reader.bytesCopied();
        } else if (result == EventBufferReader.NOTHING_YET) {
            state.checkpoint = state.writer.buffer.highestEvictedScn();
        } else if (result != EventBufferReader.NOT_PINNED) { // mapped storage never pins
            throw new IllegalStateException("unexpected pin result: result=" + result);
        }
        return result;
    }

    static EventBufferConfig config(String storage) throws IOException {
        return switch (storage) {
            case "direct" -> EventBufferConfig.direct(CAPACITY_BYTES, SEGMENT_BYTES);
            case "mapped" ->
                    EventBufferConfig.mapped(CAPACITY_BYTES, SEGMENT_BYTES, mapDirectory());
            default -> throw new IllegalArgumentException("unknown storage: storage=" + storage);
        };
    }

    private static Path mapDirectory() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm)
                && Files.getFileStore(shm).getUsableSpace() > 2 * CAPACITY_BYTES) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** A whitepaper transaction: 10 inserts of ~1,100-byte rows and its END_OF_TRANSACTION. */
    static FrameEncoder encodeTransaction() {
        TableSchema schema = WhitepaperRows.register(new SchemaRegistry(), 1);
        Random random = new Random(42);
        FrameEncoder encoder = new FrameEncoder(16 * 1024);
        encoder.beginTransaction(1, 0, 1_700_000_000_000_000L, "0-1-1");
        for (int i = 0; i < EVENTS_PER_TRANSACTION; i++) {
            encoder.appendRowChange(Operation.INSERT, schema, null, WhitepaperRows.row(random, i));
        }
        encoder.endTransaction();
        return encoder;
    }

    static int[] frameOffsets(ByteBuffer frames, int length) {
        int[] offsets = new int[EVENTS_PER_TRANSACTION + 1];
        int at = 0;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = at;
            at += frames.getInt(at + FrameLayout.LENGTH_OFFSET);
        }
        if (at != length) {
            throw new IllegalStateException(
                    "frames do not add up to the transaction: at=" + at + ", length=" + length);
        }
        return offsets;
    }
}
