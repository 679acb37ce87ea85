package io.changegrid.events.frame;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;

/**
 * The binary encoding of one non-null value of each {@link io.changegrid.events.value.ValueType}.
 *
 * <pre>
 * BOOLEAN       1 byte, 0 or 1
 * INT64         zig-zag varint
 * UINT64        varint of the 64 raw bits
 * FLOAT32       4 bytes IEEE 754 bits          FLOAT64   8 bytes IEEE 754 bits
 * DECIMAL       zig-zag varint scale, varint n, n bytes big-endian two's complement unscaled value
 * BITS          varint n, n bytes (BitSet.toByteArray, little-endian bit order)
 * DATE          zig-zag varint year, 1 byte month (0..12), 1 byte day (0..31)
 * TIME          zig-zag varint nanoseconds (signed duration)
 * DATETIME      DATE, then varint nano-of-day
 * TIMESTAMP     zig-zag varint epoch second, varint nano-of-second
 * TIMESTAMP_TZ  TIMESTAMP, then zig-zag varint offset seconds
 * STRING, JSON  varint n, n bytes UTF-8
 * BYTES         varint n, n bytes
 * GEOMETRY      4 bytes SRID, varint n, n bytes WKB
 * </pre>
 *
 * Writers accept the canonical Java type of each value type and a few lossless alternatives (an
 * {@link Integer} for INT64, a {@link LocalDate} for DATE, the UTF-8 bytes of a string as {@code
 * byte[]}); anything else is a bug in the caller and is refused naming the column. Readers always
 * return the canonical type.
 */
final class ValueCodec {

    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private ValueCodec() {}

    static void write(ExpandableBuffer out, Column column, Object value) {
        switch (column.type()) {
            case BOOLEAN -> out.putByte(cast(column, value, Boolean.class) ? 1 : 0);
            case INT64 -> out.putZigZagLong(integral(column, value));
            case UINT64 -> out.putVarLong(unsignedBits(column, value));
            case FLOAT32 -> out.putInt(Float.floatToRawIntBits(cast(column, value, Float.class)));
            case FLOAT64 ->
                    out.putLong(Double.doubleToRawLongBits(cast(column, value, Double.class)));
            case DECIMAL -> writeDecimal(out, cast(column, value, BigDecimal.class));
            case BITS -> writeBytes(out, cast(column, value, BitSet.class).toByteArray());
            case DATE -> writeDate(out, date(column, value));
            case TIME -> out.putZigZagLong(cast(column, value, Duration.class).toNanos());
            case DATETIME -> {
                SqlDateTime dateTime = dateTime(column, value);
                writeDate(out, dateTime.date());
                out.putVarLong(dateTime.nanoOfDay());
            }
            case TIMESTAMP -> writeInstant(out, cast(column, value, Instant.class));
            case TIMESTAMP_TZ -> {
                OffsetDateTime dateTime = cast(column, value, OffsetDateTime.class);
                writeInstant(out, dateTime.toInstant());
                out.putZigZagLong(dateTime.getOffset().getTotalSeconds());
            }
            case STRING, JSON -> {
                if (value instanceof byte[] utf8) {
                    writeBytes(out, utf8);
                } else {
                    out.putUtf8(cast(column, value, String.class));
                }
            }
            case BYTES -> writeBytes(out, cast(column, value, byte[].class));
            case GEOMETRY -> {
                Geometry geometry = cast(column, value, Geometry.class);
                out.putInt(geometry.srid());
                writeBytes(out, geometry.wkb());
            }
        }
    }

    static Object read(ByteCursor in, Column column) {
        int at = in.position();
        return switch (column.type()) {
            case BOOLEAN ->
                    switch (in.readByte()) {
                        case 0 -> Boolean.FALSE;
                        case 1 -> Boolean.TRUE;
                        default -> throw corrupt(column, at, "boolean byte not 0 or 1");
                    };
            case INT64 -> in.readZigZagLong();
            case UINT64 -> {
                long bits = in.readVarLong();
                BigInteger value = BigInteger.valueOf(bits);
                yield bits < 0 ? value.add(TWO_TO_64) : value;
            }
            case FLOAT32 -> Float.intBitsToFloat(in.readInt());
            case FLOAT64 -> Double.longBitsToDouble(in.readLong());
            case DECIMAL -> {
                long scale = in.readZigZagLong();
                int length = in.readLength();
                if (length == 0 || scale != (int) scale) {
                    throw corrupt(column, at, "decimal with empty value or scale out of range");
                }
                yield new BigDecimal(new BigInteger(in.readBytes(length)), (int) scale);
            }
            case BITS -> BitSet.valueOf(in.readBytes(in.readLength()));
            case DATE -> readDate(in, column, at);
            case TIME -> Duration.ofNanos(in.readZigZagLong());
            case DATETIME -> {
                SqlDate date = readDate(in, column, at);
                long nanoOfDay = in.readVarLong();
                if (nanoOfDay < 0 || nanoOfDay >= NANOS_PER_DAY) {
                    throw corrupt(column, at, "time of day out of range");
                }
                yield new SqlDateTime(date, nanoOfDay);
            }
            case TIMESTAMP -> readInstant(in, column, at);
            case TIMESTAMP_TZ -> {
                Instant instant = readInstant(in, column, at);
                long offset = in.readZigZagLong();
                if (Math.abs(offset) > 18 * 3600) {
                    throw corrupt(column, at, "zone offset out of range");
                }
                yield OffsetDateTime.ofInstant(instant, ZoneOffset.ofTotalSeconds((int) offset));
            }
            case STRING, JSON -> in.readUtf8();
            case BYTES -> in.readBytes(in.readLength());
            case GEOMETRY -> {
                int srid = in.readInt();
                yield new Geometry(srid, in.readBytes(in.readLength()));
            }
        };
    }

    /** Moves past one value without materializing it. */
    static void skip(ByteCursor in, Column column) {
        switch (column.type()) {
            case BOOLEAN -> in.skip(1);
            case INT64, UINT64, TIME -> in.readVarLong();
            case FLOAT32 -> in.skip(4);
            case FLOAT64 -> in.skip(8);
            case DECIMAL -> {
                in.readVarLong();
                in.skip(in.readLength());
            }
            case BITS, STRING, JSON, BYTES -> in.skip(in.readLength());
            case DATE -> {
                in.readVarLong();
                in.skip(2);
            }
            case DATETIME -> {
                in.readVarLong();
                in.skip(2);
                in.readVarLong();
            }
            case TIMESTAMP -> {
                in.readVarLong();
                in.readVarLong();
            }
            case TIMESTAMP_TZ -> {
                in.readVarLong();
                in.readVarLong();
                in.readVarLong();
            }
            case GEOMETRY -> {
                in.skip(4);
                in.skip(in.readLength());
            }
        }
    }

    private static void writeDecimal(ExpandableBuffer out, BigDecimal value) {
        out.putZigZagLong(value.scale());
        writeBytes(out, value.unscaledValue().toByteArray());
    }

    private static void writeBytes(ExpandableBuffer out, byte[] bytes) {
        out.putVarLong(bytes.length);
        out.putBytes(bytes, 0, bytes.length);
    }

    private static void writeDate(ExpandableBuffer out, SqlDate date) {
        out.putZigZagLong(date.year());
        out.putByte(date.month());
        out.putByte(date.day());
    }

    private static void writeInstant(ExpandableBuffer out, Instant instant) {
        out.putZigZagLong(instant.getEpochSecond());
        out.putVarLong(instant.getNano());
    }

    private static SqlDate readDate(ByteCursor in, Column column, int at) {
        long year = in.readZigZagLong();
        int month = in.readByte();
        int day = in.readByte();
        if (year != (int) year || month < 0 || month > 12 || day < 0 || day > 31) {
            throw corrupt(column, at, "date out of range");
        }
        return new SqlDate((int) year, month, day);
    }

    private static Instant readInstant(ByteCursor in, Column column, int at) {
        long seconds = in.readZigZagLong();
        long nanos = in.readVarLong();
        if (nanos < 0
                || nanos > 999_999_999L
                || seconds < Instant.MIN.getEpochSecond()
                || seconds > Instant.MAX.getEpochSecond()) {
            throw corrupt(column, at, "instant out of range");
        }
        return Instant.ofEpochSecond(seconds, nanos);
    }

    private static long integral(Column column, Object value) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        throw mismatch(column, value);
    }

    private static long unsignedBits(Column column, Object value) {
        if (value instanceof BigInteger big) {
            if (big.signum() < 0 || big.bitLength() > 64) {
                throw new IllegalArgumentException(
                        "value out of UINT64 range: column=" + column.name() + ", value=" + big);
            }
            return big.longValue();
        }
        if (value instanceof Long raw) {
            return raw; // the unsigned value's 64 bits, as binlog readers hand BIGINT UNSIGNED over
        }
        throw mismatch(column, value);
    }

    private static SqlDate date(Column column, Object value) {
        if (value instanceof LocalDate local) {
            return SqlDate.of(local);
        }
        return cast(column, value, SqlDate.class);
    }

    private static SqlDateTime dateTime(Column column, Object value) {
        if (value instanceof LocalDateTime local) {
            return SqlDateTime.of(local);
        }
        return cast(column, value, SqlDateTime.class);
    }

    private static <T> T cast(Column column, Object value, Class<T> type) {
        if (!type.isInstance(value)) {
            throw mismatch(column, value);
        }
        return type.cast(value);
    }

    private static IllegalArgumentException mismatch(Column column, Object value) {
        return new IllegalArgumentException(
                "value does not fit column type: column="
                        + column.name()
                        + ", type="
                        + column.type()
                        + ", valueClass="
                        + value.getClass().getName());
    }

    private static CorruptFrameException corrupt(Column column, int at, String what) {
        return new CorruptFrameException(
                what + ": column=" + column.name() + ", type=" + column.type() + ", offset=" + at);
    }
}
