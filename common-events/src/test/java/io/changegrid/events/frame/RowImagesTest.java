package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A row change whose images a source writes in place ({@link RowImages}, {@link RowImageWriter}) is
 * the same frame, byte for byte, as the one encoded from the images as values. The source here
 * writes each value through the typed {@code put} that fits it, as a fetcher reading its log in
 * place does, and through {@link RowImageWriter#putValue} for the rest.
 */
class RowImagesTest {

    @Test
    void shouldEncodeTheSameFrameInPlaceAsFromValues() {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        Random random = new Random(seed);
        SchemaRegistry registry = new SchemaRegistry();
        FrameEncoder fromValues = new FrameEncoder(1024);
        FrameEncoder inPlace = new FrameEncoder(1024);
        for (int table = 0; table < 40; table++) {
            TableSchema schema = RandomRowRoundTripTest.randomSchema(registry, random, table);
            for (int row = 0; row < 100; row++) {
                Object[] before = RandomRowRoundTripTest.randomRow(schema, random);
                Object[] after = RandomRowRoundTripTest.randomRow(schema, random);
                for (Operation op : List.of(Operation.INSERT, Operation.UPDATE, Operation.DELETE)) {
                    Object[] b = op == Operation.INSERT ? null : before;
                    Object[] a = op == Operation.DELETE ? null : after;
                    byte[] expected = encode(fromValues, e -> e.appendRowChange(op, schema, b, a));
                    byte[] actual =
                            encode(inPlace, e -> e.appendRowChange(op, schema, new Values(b, a)));
                    assertThat(actual)
                            .as("seed=%d, table=%d, row=%d, op=%s", seed, table, row, op)
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void shouldWriteUnscaledDecimalsAsBigDecimalsEncode() {
        Random random = new Random(7);
        ExpandableBuffer expected = new ExpandableBuffer(64);
        ExpandableBuffer actual = new ExpandableBuffer(64);
        RowImageWriter writer = new RowImageWriter(actual);
        TableSchema schema =
                new SchemaRegistry()
                        .register("db", "t", List.of(Column.of("d", ValueType.DECIMAL)), List.of());
        writer.column(schema, 0);
        long[] edges = {
            0,
            1,
            -1,
            127,
            128,
            -128,
            -129,
            255,
            256,
            32767,
            -32768,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            999_999_999_999_999_999L,
            -999_999_999_999_999_999L
        };
        for (int i = 0; i < 10_000 + edges.length; i++) {
            long unscaled = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            int scale = random.nextInt(40) - 10;
            expected.clear();
            actual.clear();
            ValueCodec.write(
                    expected,
                    schema.column(0),
                    new BigDecimal(BigInteger.valueOf(unscaled), scale));
            writer.putDecimal(unscaled, scale);
            assertThat(actual.toByteArray())
                    .as("%d scale %d", unscaled, scale)
                    .isEqualTo(expected.toByteArray());
        }
    }

    @Test
    void shouldRefuseAValueOfAnotherTypeNamingTheColumn() {
        TableSchema schema =
                new SchemaRegistry()
                        .register(
                                "shop",
                                "orders",
                                List.of(
                                        Column.of("id", ValueType.INT64),
                                        Column.of("note", ValueType.STRING)),
                                List.of("id"));
        FrameEncoder encoder = new FrameEncoder(256);
        encoder.beginTransaction(1, 10, 0, "t");
        RowImages wrong =
                new RowImages() {
                    @Override
                    public boolean isNull(boolean after, int column) {
                        return false;
                    }

                    @Override
                    public void write(RowImageWriter out, boolean after, int column) {
                        out.putTimestamp(1, 0);
                    }
                };

        assertThatThrownBy(() -> encoder.appendRowChange(Operation.INSERT, schema, wrong))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("written=TIMESTAMP")
                .hasMessageContaining("table=shop.orders, column=id");
        assertThat(encoder.buffer().position()).isZero();
    }

    private static byte[] encode(FrameEncoder encoder, Consumer<FrameEncoder> row) {
        encoder.buffer().clear();
        encoder.beginTransaction(3, 42, 1_700_000_000_000_000L, "txn");
        row.accept(encoder);
        encoder.endTransaction();
        return encoder.buffer().toByteArray();
    }

    /** Images held as values, written the way a source reading its log in place writes them. */
    private record Values(Object[] before, Object[] after) implements RowImages {

        @Override
        public boolean isNull(boolean isAfter, int column) {
            return (isAfter ? after : before)[column] == null;
        }

        @Override
        public void write(RowImageWriter out, boolean isAfter, int column) {
            writeTyped(out, (isAfter ? after : before)[column]);
        }

        private static void writeTyped(RowImageWriter out, Object value) {
            if (value instanceof Long l) {
                out.putInt64(l);
            } else if (value instanceof BigInteger unsigned) {
                out.putUInt64Bits(unsigned.longValue());
            } else if (value instanceof Float f) {
                out.putFloat32Bits(Float.floatToRawIntBits(f));
            } else if (value instanceof Double d) {
                out.putFloat64Bits(Double.doubleToRawLongBits(d));
            } else if (value instanceof BigDecimal d && d.unscaledValue().bitLength() < 64) {
                out.putDecimal(d.unscaledValue().longValue(), d.scale());
            } else if (value instanceof SqlDate d) {
                out.putDate(d.year(), d.month(), d.day());
            } else if (value instanceof SqlDateTime t) {
                out.putDateTime(t.date().year(), t.date().month(), t.date().day(), t.nanoOfDay());
            } else if (value instanceof Instant i) {
                out.putTimestamp(i.getEpochSecond(), i.getNano());
            } else if (value instanceof String s) {
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                out.putBytes(utf8, 0, utf8.length);
            } else if (value instanceof byte[] bytes) {
                out.putBytes(bytes, 0, bytes.length);
            } else {
                out.putValue(value);
            }
        }
    }
}
