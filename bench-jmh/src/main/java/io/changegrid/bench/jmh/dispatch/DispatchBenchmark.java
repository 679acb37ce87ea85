package io.changegrid.bench.jmh.dispatch;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.bench.consumer.InMemoryCheckpointStore;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.dispatch.Dispatcher;
import io.changegrid.consumer.sink.CountingCallback;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * The consumer's dispatch path: the benchmark thread plays the puller, copying relay responses (10
 * transactions of 10 ~1,100-byte inserts, 110 KB) into the consumer event buffer; the {@link
 * Dispatcher} on its own thread hands every transaction to a {@link CountingCallback} (which
 * touches each event's header and bytes) and checkpoints each batch. One operation is one response;
 * when the dispatcher falls behind, the copy waits for buffer room, so the rate is the slower of
 * the two, which is dispatch. {@code events} is per second; {@code batch} is {@code
 * batch.maxTransactions}.
 *
 * <p>Two threads: on a 2-core machine nothing else should run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class DispatchBenchmark {

    static final int TRANSACTIONS_PER_RESPONSE = 10;
    static final int EVENTS_PER_TRANSACTION = 10;

    @Param({"1", "1000"})
    public int batch;

    private ConsumerBuffer buffer;
    private Dispatcher dispatcher;
    private Thread thread;
    private byte[] response;
    private ByteBuffer responseView;
    private int[] frameOffsets;
    private boolean[] endsTransaction;
    private long scn;

    /** Events handed over, reported by JMH as a rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Delivered {
        public long events;

        @Setup(Level.Iteration)
        public void reset() {
            events = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        SchemaRegistry registry = new SchemaRegistry();
        TableSchema schema = WhitepaperRows.register(registry, 1);
        FrameEncoder encoder = new FrameEncoder(1 << 20);
        Random random = new Random(42);
        for (int t = 0; t < TRANSACTIONS_PER_RESPONSE; t++) {
            encoder.beginTransaction(1, t + 1, 1_700_000_000_000_000L, "0-1-" + t);
            for (int e = 0; e < EVENTS_PER_TRANSACTION; e++) {
                encoder.appendRowChange(
                        Operation.INSERT, schema, null, WhitepaperRows.row(random, t * 100L + e));
            }
            encoder.endTransaction();
        }
        response = new byte[encoder.buffer().position()];
        encoder.buffer().byteBuffer().get(0, response);
        responseView = ByteBuffer.wrap(response).order(ByteOrder.LITTLE_ENDIAN);
        frameOffsets = frameOffsets(responseView, response.length);
        endsTransaction = new boolean[frameOffsets.length];
        for (int i = 0; i < frameOffsets.length; i++) {
            endsTransaction[i] =
                    responseView.get(frameOffsets[i] + FrameLayout.OPERATION_OFFSET)
                            == Operation.END_OF_TRANSACTION.code();
        }
        buffer = new ConsumerBuffer(64 << 20, 4096);
        ConsumerConfig config =
                ConsumerConfig.of(
                        Map.of(
                                "relays",
                                List.of("http://127.0.0.1:1"),
                                "batch.maxTransactions",
                                batch,
                                "batch.maxWait",
                                "0ms"));
        dispatcher =
                new Dispatcher(
                        config,
                        buffer,
                        List.of(registry),
                        new CountingCallback(),
                        new InMemoryCheckpointStore(),
                        -1);
        thread = new Thread(dispatcher, "dispatcher");
        thread.start();
    }

    /** One relay response into the buffer; its transactions get new SCNs, as a relay's would. */
    @Benchmark
    public int handOver(Delivered delivered) throws InterruptedException {
        scn++;
        for (int i = 0; i < frameOffsets.length; i++) {
            responseView.putLong(frameOffsets[i] + FrameLayout.SCN_OFFSET, scn);
            if (endsTransaction[i] && i < frameOffsets.length - 1) {
                scn++;
            }
        }
        int at = buffer.claim(response.length);
        if (at < 0) {
            throw new IllegalStateException("claim failed: code=" + at);
        }
        System.arraycopy(response, 0, buffer.bytes(), at, response.length);
        buffer.publish(response.length, scn, 0);
        delivered.events += TRANSACTIONS_PER_RESPONSE * EVENTS_PER_TRANSACTION;
        return at;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        dispatcher.stop();
        buffer.close();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        if (dispatcher.failure() != null) {
            throw new IllegalStateException("dispatcher failed", dispatcher.failure());
        }
    }

    private static int[] frameOffsets(ByteBuffer frames, int length) {
        List<Integer> offsets = new ArrayList<>();
        for (int at = 0; at < length; at += frames.getInt(at + FrameLayout.LENGTH_OFFSET)) {
            offsets.add(at);
        }
        return offsets.stream().mapToInt(Integer::intValue).toArray();
    }
}
