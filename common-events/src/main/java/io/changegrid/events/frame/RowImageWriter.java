package io.changegrid.events.frame;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;

/**
 * Writes one value of a row image in {@link ValueCodec}'s encoding from the parts a source holds
 * (integers, IEEE bits, unscaled decimals, calendar fields, UTF-8 bytes), without a boxed value in
 * between. Each {@code put} checks that the column has the value type it writes, so a source that
 * maps a column wrongly fails naming the column instead of writing a frame no decoder can read.
 *
 * <p>The {@link FrameEncoder} owns one and hands it to {@link RowImages#write} for one column at a
 * time. Not thread-safe.
 */
public final class RowImageWriter {

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final ExpandableBuffer out;
    private TableSchema schema;

    /** The index of the column in {@link #schema} whose value the next {@code put} writes. */
    private int column;

    RowImageWriter(ExpandableBuffer out) {
        this.out = out;
    }

    /**
     * Points the writer at the column whose value the next {@code put} writes. The writer lives as
     * long as its encoder, so in a relay that has run a while it is in G1's old generation, where a
     * store of a reference to another region pays the collector's card-marking barrier with a
     * StoreLoad fence: storing the schema and the column for every column was a quarter of a policy
     * chain's row in place (BinlogRowsBenchmark: 633 ns a row before, 507 after; with the Parallel
     * collector, whose barrier has no fence, 557 and 533). Only the index is stored per column, the
     * schema only when it changes.
     */
    void column(TableSchema table, int index) {
        if (schema != table) {
            schema = table;
        }
        column = index;
    }

    private Column column() {
        return schema.column(column);
    }

    /** A signed integer of an INT64 column. */
    public void putInt64(long value) {
        expect(ValueType.INT64);
        out.putZigZagLong(value);
    }

    /** The 64 bits of an unsigned integer of a UINT64 column. */
    public void putUInt64Bits(long bits) {
        expect(ValueType.UINT64);
        out.putVarLong(bits);
    }

    /** The IEEE 754 bits of a FLOAT32 value. */
    public void putFloat32Bits(int bits) {
        expect(ValueType.FLOAT32);
        out.putInt(bits);
    }

    /** The IEEE 754 bits of a FLOAT64 value. */
    public void putFloat64Bits(long bits) {
        expect(ValueType.FLOAT64);
        out.putLong(bits);
    }

    /**
     * A DECIMAL of {@code unscaled × 10^-scale}: the same bytes {@code new BigDecimal(
     * BigInteger.valueOf(unscaled), scale)} encodes to, without building it.
     */
    public void putDecimal(long unscaled, int scale) {
        expect(ValueType.DECIMAL);
        out.putZigZagLong(scale);
        // BigInteger.toByteArray's length: the fewest bytes that hold the value and its sign bit.
        int bits = 64 - Long.numberOfLeadingZeros(unscaled < 0 ? ~unscaled : unscaled);
        int length = bits / 8 + 1;
        out.putVarLong(length);
        for (int shift = (length - 1) * 8; shift >= 0; shift -= 8) {
            out.putByte((int) (unscaled >>> shift));
        }
    }

    /** A DATE, zero parts allowed as in {@link io.changegrid.events.value.SqlDate}. */
    public void putDate(int year, int month, int day) {
        expect(ValueType.DATE);
        writeDate(year, month, day);
    }

    /** A DATETIME: a date and the nanoseconds since its midnight. */
    public void putDateTime(int year, int month, int day, long nanoOfDay) {
        expect(ValueType.DATETIME);
        if (nanoOfDay < 0 || nanoOfDay >= NANOS_PER_DAY) {
            throw new IllegalArgumentException(
                    "time of day out of range: nanoOfDay=" + nanoOfDay + where());
        }
        writeDate(year, month, day);
        out.putVarLong(nanoOfDay);
    }

    /** A TIMESTAMP: seconds since the epoch and the nanoseconds within that second. */
    public void putTimestamp(long epochSecond, int nano) {
        expect(ValueType.TIMESTAMP);
        if (nano < 0 || nano >= 1_000_000_000) {
            throw new IllegalArgumentException("nanosecond out of range: nano=" + nano + where());
        }
        out.putZigZagLong(epochSecond);
        out.putVarLong(nano);
    }

    /**
     * The bytes of a STRING or JSON value (UTF-8, not checked here: the source knows its charset)
     * or of a BYTES value, copied once.
     */
    public void putBytes(byte[] source, int offset, int length) {
        ValueType type = column().type();
        if (type != ValueType.STRING && type != ValueType.JSON && type != ValueType.BYTES) {
            throw mismatch("STRING, JSON or BYTES");
        }
        out.putVarLong(length);
        out.putBytes(source, offset, length);
    }

    /** A BYTES value padded with zero bytes to {@code width} (a fixed-width binary column). */
    public void putPaddedBytes(byte[] source, int offset, int length, int width) {
        expect(ValueType.BYTES);
        int padded = Math.max(length, width);
        out.putVarLong(padded);
        out.putBytes(source, offset, length);
        out.putZeros(padded - length);
    }

    /** Any value in its canonical Java type, as {@link FrameEncoder#appendRowChange} takes it. */
    public void putValue(Object value) {
        ValueCodec.write(out, column(), value);
    }

    private void writeDate(int year, int month, int day) {
        if (month < 0 || month > 12 || day < 0 || day > 31) {
            throw new IllegalArgumentException(
                    "date out of range: year="
                            + year
                            + ", month="
                            + month
                            + ", day="
                            + day
                            + where());
        }
        out.putZigZagLong(year);
        out.putByte(month);
        out.putByte(day);
    }

    private void expect(ValueType type) {
        if (column().type() != type) {
            throw mismatch(type.name());
        }
    }

    private IllegalArgumentException mismatch(String written) {
        return new IllegalArgumentException(
                "value does not fit column: written="
                        + written
                        + ", columnType="
                        + column().type()
                        + where());
    }

    private String where() {
        return ", table=" + schema.qualifiedName() + ", column=" + column().name();
    }
}
