package io.changegrid.bench.buffer;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The relay buffer's sizing claim, measured: the whitepaper's stage-2 preload (4.8 M events of
 * ~1,100 bytes, about 5.3 GB) held in one event buffer while the JVM's heap stays under 512 MB. Run
 * it in a JVM limited to that heap:
 *
 * <pre>
 * java -Xmx512m -jar bench/target/bench.jar buffer-capacity [events] [dir]
 * </pre>
 */
@Command(
        name = "buffer-capacity",
        mixinStandardHelpOptions = true,
        description =
                "Fills one event buffer with the whitepaper's stage-2 preload and reports the heap"
                        + " it took; run it with -Xmx512m.")
public final class BufferCapacityCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            arity = "0..1",
            defaultValue = "4800000",
            description = "Events to append. Default: ${DEFAULT-VALUE}.")
    long events;

    @Parameters(
            index = "1",
            arity = "0..1",
            defaultValue = "/dev/shm",
            description = "Directory of the buffer's mapped segments. Default: ${DEFAULT-VALUE}.")
    Path directory;

    @Override
    public Integer call() {
        int segment = 256 << 20;
        long capacity = ((events * 1_090L) / segment + 2) * segment;
        SchemaRegistry registry = new SchemaRegistry();
        TableSchema[] tables = {
            WhitepaperRows.register(registry, 1),
            WhitepaperRows.register(registry, 2),
            WhitepaperRows.register(registry, 3)
        };
        Random random = new Random(42);
        Object[][] rows = new Object[1024][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = WhitepaperRows.row(random, i);
        }
        long startNanos = System.nanoTime();
        try (EventBuffer buffer =
                new EventBuffer(EventBufferConfig.mapped(capacity, segment, directory))) {
            double allocateSeconds = (System.nanoTime() - startNanos) / 1e9;
            FrameEncoder encoder = new FrameEncoder(64 * 1024);
            long scn = 1;
            long appended = 0;
            long fillStart = System.nanoTime();
            while (appended < events) {
                encoder.buffer().clear();
                encoder.beginTransaction(1, scn, 1_700_000_000_000_000L, "0-1-" + scn);
                for (int i = 0; i < 10 && appended < events; i++, appended++) {
                    Object[] row = rows[(int) (appended & 1023)];
                    row[0] = appended;
                    encoder.appendRowChange(
                            Operation.INSERT, tables[(int) (appended % 3)], null, row);
                }
                encoder.endTransaction();
                buffer.append(scn++, encoder.buffer().byteBuffer(), 0, encoder.buffer().position());
            }
            double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
            System.gc();
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            long heapUsed = memory.getHeapMemoryUsage().getUsed();
            System.out.printf(
                    Locale.ROOT,
                    "events=%,d bytesInBuffer=%,d (%.2f GB) capacity=%,d segments=%d heapMax=%,d MB"
                            + " heapUsedAfterGc=%,d MB indexHeap=%,d KB evicted=%d allocate=%.1fs fill=%.1fs"
                            + " (%,.0f events/s incl. encoding)%n",
                    appended,
                    buffer.bytesUsed(),
                    buffer.bytesUsed() / 1e9,
                    buffer.capacity(),
                    buffer.config().segmentCount(),
                    memory.getHeapMemoryUsage().getMax() >> 20,
                    heapUsed >> 20,
                    buffer.indexHeapBytes() >> 10,
                    buffer.transactionsEvicted(),
                    allocateSeconds,
                    fillSeconds,
                    appended / fillSeconds);
        }
        return 0;
    }
}
