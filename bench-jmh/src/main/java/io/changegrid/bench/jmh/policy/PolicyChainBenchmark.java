package io.changegrid.bench.jmh.policy;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.config.PolicyConfig;
import io.changegrid.relay.stream.Subscription;
import java.nio.ByteBuffer;
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
 * What policies cost per ~1,100-byte insert on the relay's fetcher thread, next to the pass-through
 * encoding they add to, with rows as the binlog fetcher hands them over (text as UTF-8 bytes): the
 * chain of issue 5 — select by table, a row predicate, mask one column (salted SHA-256), add a
 * column — then encoding with the output schema. And on the serving side, a subscription judging
 * stored frames from their headers (key-hash partition) against one that must decode rows for a
 * predicate.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PolicyChainBenchmark {

    /** The chain: every row passes the predicate, so every row is transformed and encoded. */
    static final String CHAIN =
            """
            policies:
              - include: [bench.*]
                where: account >= 0 AND quantity < 1000
                transform:
                  mask: {text1: {hash: {salt: bench}}}
                  add: {src_db: {source: database}}
            """;

    private static final int ROWS = 1024;
    private static final int EVENTS_PER_TRANSACTION = 10;

    private final SchemaRegistry registry = new SchemaRegistry();
    private TableSchema schema;
    private TableRoute chain;
    private Object[][] rows;
    private FrameEncoder encoder;
    private int next;
    private long scn;

    private final EventFrame frame = new EventFrame();
    private ByteBuffer stored;
    private int[] storedOffsets;
    private Subscription byHeader;
    private Subscription byPredicate;

    @Setup
    public void setUp() {
        schema = WhitepaperRows.register(registry, 1);
        chain =
                CapturePlan.of(
                                PolicyConfig.parse(YamlConfigFile.parse(CHAIN, "chain")),
                                CapturePlan.ALL_PARTITIONS,
                                "capture.partition")
                        .route(schema);
        Random random = new Random(42);
        rows = new Object[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            rows[i] = WhitepaperRows.asFetched(WhitepaperRows.row(random, i));
        }
        encoder = new FrameEncoder(1 << 20);
        begin();

        FrameEncoder storing = new FrameEncoder(4 << 20);
        storing.beginTransaction(1, 1, 0, "t");
        storedOffsets = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            storedOffsets[i] = storing.appendRowChange(Operation.INSERT, schema, null, rows[i]);
        }
        stored = storing.buffer().byteBuffer();
        byHeader = subscription("partition: {byKeyHash: {partitions: 4}}", 1);
        byPredicate = subscription("where: quantity < 500", CapturePlan.ALL_PARTITIONS);
    }

    private Subscription subscription(String clause, int partition) {
        String yaml = "policies:\n  - include: [bench.*]\n    " + clause + "\n";
        return new Subscription(
                CapturePlan.of(
                        PolicyConfig.parse(YamlConfigFile.parse(yaml, "subscription")),
                        partition,
                        "partition"));
    }

    /** The baseline: one insert encoded as fetched, without policies. */
    @Benchmark
    public int passThrough() {
        Object[] row = rows[advance()];
        return encoder.appendRowChange(Operation.INSERT, schema, null, row);
    }

    /** The chain and the encoding of its output: what a relay with policies does per row. */
    @Benchmark
    public int policyChain() {
        Object[] row = rows[advance()];
        if (!chain.selects(Operation.INSERT, null, row)) {
            return -1;
        }
        Object[] out = chain.transform(row, false, 1, scn, 1_700_000_000_000_000L);
        return encoder.appendRowChange(Operation.INSERT, chain.output(), null, out);
    }

    /** The chain alone: predicate, masking and the added column, no encoding. */
    @Benchmark
    public Object[] policyChainWithoutEncoding() {
        Object[] row = rows[advance()];
        return chain.selects(Operation.INSERT, null, row)
                ? chain.transform(row, false, 1, scn, 1_700_000_000_000_000L)
                : null;
    }

    /** Serving: a key-hash partition decided from the stored frame's header. */
    @Benchmark
    public boolean subscriptionFromHeader() {
        frame.wrap(stored, storedOffsets[advance()]);
        return byHeader.wants(frame, registry);
    }

    /** Serving: a predicate, which decodes the stored row. */
    @Benchmark
    public boolean subscriptionDecodingRows() {
        frame.wrap(stored, storedOffsets[advance()]);
        return byPredicate.wants(frame, registry);
    }

    private int advance() {
        if (encoder.eventCount() == EVENTS_PER_TRANSACTION) {
            encoder.endTransaction();
            begin();
        }
        int at = next;
        next = (next + 1) & (ROWS - 1);
        return at;
    }

    private void begin() {
        encoder.buffer().clear();
        encoder.beginTransaction(1, ++scn, 1_700_000_000_000_000L, "0-1-" + scn);
    }
}
