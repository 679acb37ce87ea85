package io.changegrid.policy.capture;

import static io.changegrid.policy.capture.CapturePlanTest.policies;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.RowImageWriter;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A route with policies writes the same frames from a row read in place ({@link SourceRow}: values
 * only for what the predicate reads and the transform computes) as from the images as values.
 */
class TransactionWriterInPlaceTest {

    private static final String CHAIN =
            """
            policies:
              - include: [shop.users]
                where: "tenant_id >= 3 AND name IS NOT NULL"
                transform:
                  rename: {name: full_name}
                  drop: [secret]
                  mask: {ssn: {hash: {salt: s}}, note: {fixed: '#'}}
                  add: {src_db: {source: database}, at: {source: scn}, tag: {constant: t}}
            """;

    private final SchemaRegistry source = new SchemaRegistry();
    private final TableSchema users =
            source.register(
                    "shop",
                    "users",
                    List.of(
                            Column.of("id", ValueType.INT64),
                            Column.of("tenant_id", ValueType.INT64),
                            new Column("ssn", ValueType.STRING, "varchar", true, 0),
                            new Column("name", ValueType.STRING, "varchar", true, 0),
                            new Column("secret", ValueType.BYTES, "varbinary", true, 0),
                            new Column("note", ValueType.STRING, "varchar", true, 0),
                            new Column("score", ValueType.FLOAT64, "double", true, 0)),
                    List.of("id", "ssn"));

    @ParameterizedTest(name = "text where it lies: {0}")
    @ValueSource(booleans = {false, true})
    void shouldWriteTheSameFramesInPlaceAsFromValuesWhenThePolicyFiltersAndTransforms(
            boolean spans) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        TableRoute route = chainRoute();
        assertThat(route.readsInPlace()).isTrue();
        assertThat(route.passesEverything()).isFalse();
        TransactionWriter fromValues = new TransactionWriter(4, 1024);
        TransactionWriter inPlace = new TransactionWriter(4, 1024);
        ArraySourceRow row = new ArraySourceRow(spans);

        int published = 0;
        for (int transaction = 0; transaction < 200; transaction++) {
            fromValues.open(1000 + transaction, 5_000 + transaction, "0-1-" + transaction);
            inPlace.open(1000 + transaction, 5_000 + transaction, "0-1-" + transaction);
            for (int change = 0; change < 10; change++) {
                Operation op = Operation.values()[random.nextInt(3)];
                Object[] before = op == Operation.INSERT ? null : randomRow(random);
                Object[] after = op == Operation.DELETE ? null : randomRow(random);
                row.set(before, after);
                boolean want =
                        fromValues.appendRow(
                                route,
                                op,
                                before == null ? null : before.clone(),
                                after == null ? null : after.clone());
                boolean got = inPlace.appendRow(route, op, row);
                assertThat(got).as("selected, seed=" + seed).isEqualTo(want);
                published += got ? 1 : 0;
            }
            assertThat(inPlace.hasEvents()).isEqualTo(fromValues.hasEvents());
            if (fromValues.hasEvents()) {
                fromValues.end();
                inPlace.end();
                assertThat(bytes(inPlace))
                        .as("transaction " + transaction + ", seed=" + seed)
                        .isEqualTo(bytes(fromValues));
                assertThat(inPlace.events()).isEqualTo(fromValues.events());
            }
        }
        assertThat(published).as("some rows pass, seed=" + seed).isGreaterThan(100);
    }

    @ParameterizedTest(name = "text where it lies: {0}")
    @ValueSource(booleans = {false, true})
    void shouldMaskAnUpdatesUnchangedValueOnceAndAChangedOneAgain(boolean spans) {
        TableRoute route = chainRoute();
        Object[] before = {1L, 5L, "ssn-1", "ann", null, "note", 1.5};
        Object[][] afters = {
            {1L, 5L, "ssn-1", "ann", null, "note", 2.5}, // masked columns unchanged
            {1L, 5L, "ssn-2", "ann", null, null, 2.5}, // both changed, one to NULL
            {1L, 5L, "ssn-1", "ann", null, "note", 2.5} // unchanged again after a change
        };
        TransactionWriter fromValues = new TransactionWriter(4, 1024);
        TransactionWriter inPlace = new TransactionWriter(4, 1024);
        ArraySourceRow row = new ArraySourceRow(spans);
        fromValues.open(7, 70, "0-1-7");
        inPlace.open(7, 70, "0-1-7");
        for (Object[] after : afters) {
            row.set(before, after);
            assertThat(fromValues.appendRow(route, Operation.UPDATE, before.clone(), after.clone()))
                    .isTrue();
            assertThat(inPlace.appendRow(route, Operation.UPDATE, row)).isTrue();
        }
        fromValues.end();
        inPlace.end();

        assertThat(bytes(inPlace)).isEqualTo(bytes(fromValues));
    }

    private TableRoute chainRoute() {
        return new CaptureRouter(
                        TableFilter.of(List.of(), List.of()),
                        CapturePlan.of(policies(CHAIN), CapturePlan.ALL_PARTITIONS, "p"),
                        source)
                .route(users);
    }

    private static Object[] randomRow(Random random) {
        return new Object[] {
            (long) random.nextInt(1000),
            (long) random.nextInt(8),
            random.nextInt(5) == 0 ? null : "ssn-" + random.nextInt(10_000),
            random.nextInt(8) == 0 ? null : "name " + random.nextInt(100),
            random.nextInt(3) == 0 ? null : new byte[] {(byte) random.nextInt()},
            random.nextInt(4) == 0 ? null : "note",
            random.nextInt(4) == 0 ? null : random.nextDouble()
        };
    }

    private static byte[] bytes(TransactionWriter writer) {
        return Arrays.copyOf(writer.frames().array(), writer.length());
    }

    /**
     * A row read "in place" from arrays: values written one by one through the writer, text given
     * as its UTF-8 bytes, as the binlog fetcher gives it (so hash masks take their in-place path);
     * with {@code spans}, the bytes of both images also laid out in one array, as a rows event
     * holds them, and given as {@link SourceRow#valueSpan spans} into it.
     */
    private static final class ArraySourceRow implements SourceRow {
        private final boolean spans;
        private Object[] before;
        private Object[] after;
        private long[] beforeSpans;
        private long[] afterSpans;
        private byte[] bytes;

        ArraySourceRow(boolean spans) {
            this.spans = spans;
        }

        void set(Object[] before, Object[] after) {
            this.before = before;
            this.after = after;
            ByteArrayOutputStream laidOut = new ByteArrayOutputStream();
            laidOut.write('#'); // no value starts at 0, as in a rows event
            beforeSpans = layOut(false, laidOut);
            afterSpans = layOut(true, laidOut);
            bytes = laidOut.toByteArray();
        }

        private long[] layOut(boolean afterImage, ByteArrayOutputStream laidOut) {
            Object[] image = afterImage ? after : before;
            if (image == null) {
                return null;
            }
            long[] at = new long[image.length];
            for (int column = 0; column < image.length; column++) {
                at[column] = -1;
                if (value(afterImage, column) instanceof byte[] value) {
                    at[column] = SourceRow.span(laidOut.size(), value.length);
                    laidOut.writeBytes(value);
                }
            }
            return at;
        }

        @Override
        public Object value(boolean afterImage, int column) {
            Object value = (afterImage ? after : before)[column];
            return value instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : value;
        }

        @Override
        public long valueSpan(boolean afterImage, int column) {
            return spans ? (afterImage ? afterSpans : beforeSpans)[column] : -1;
        }

        @Override
        public byte[] valueBytes() {
            return bytes;
        }

        @Override
        public boolean isNull(boolean afterImage, int column) {
            return value(afterImage, column) == null;
        }

        @Override
        public void write(RowImageWriter out, boolean afterImage, int column) {
            out.putValue(value(afterImage, column));
        }
    }
}
