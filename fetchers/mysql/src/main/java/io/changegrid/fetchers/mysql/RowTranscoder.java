package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.changegrid.events.frame.RowImageWriter;
import io.changegrid.events.frame.RowImages;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;

/**
 * Reads binlog row images in place and writes their values straight into frames: integers, floating
 * point, DECIMAL up to 18 digits, DATE, DATETIME2, TIMESTAMP2 and the bytes of UTF-8 text and
 * binary columns go from the rows event's bytes to the frame's encoding with no value object in
 * between; other columns (ENUM, SET, JSON, BIT, TIME, YEAR, charsets other than UTF-8, compressed
 * columns, MariaDB's UUID and INET types, wide DECIMALs, the old temporal formats) are decoded by
 * the library and converted by {@link RowConverter}, one cell at a time. Either way the frame is
 * the one the object path ({@code RowConverter} then {@code FrameEncoder}) writes, byte for byte.
 *
 * <p>A row image (the server's {@code pack_row}): a NULL bitmap of one bit per included column,
 * then each non-NULL value in column order, in its storage format: little-endian integers and IEEE
 * floats, big-endian packed DECIMAL and temporal values, length-prefixed strings and blobs. Built
 * per schema version and table map, for images that include every column (binlog_row_image=FULL,
 * which the fetcher requires); {@link #of} returns null for a table with a binlog type it does not
 * know the size of, which then takes the object path.
 *
 * <p>Routes whose policies need values get them from the same bytes ({@link #values}), as {@link
 * RowConverter} would give them from the library's cells.
 *
 * <p>Not thread-safe: the fetcher's thread reads one image pair at a time into it.
 */
final class RowTranscoder implements RowImages {

    private static final int[] DIGITS_TO_BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    private static final long[] POWERS_OF_TEN = new long[10];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private static final long DATETIMEF_INT_OFS = 0x80_0000_0000L;
    private static final long NANOS_PER_MICRO = 1_000L;

    /** How a column's value is written. */
    private enum Write {
        SIGNED,
        UNSIGNED,
        UINT64,
        FLOAT32,
        FLOAT64,
        DECIMAL,
        DATE,
        DATETIME2,
        TIMESTAMP2,
        BYTES,
        PADDED_BYTES,
        /** Decoded by the library and converted: the types not read in place. */
        CELL
    }

    private final RowConverter converter;
    private final TableSchema schema;
    private final Write[] writes;

    /**
     * The binlog type after resolving STRING's real type from its metadata, as the library does.
     */
    private final ColumnType[] types;

    private final int[] metas;
    private final int[] lengths;

    /** The size of a fixed-size value, or -1. */
    private final int[] fixedSizes;

    /** The bytes of a variable value's little-endian length prefix. */
    private final int[] prefixes;

    private final int[] beforeAt;
    private final int[] afterAt;
    private BinlogRows rows;

    private RowTranscoder(RowConverter converter, TableMapEventData map) {
        this.converter = converter;
        this.schema = converter.schema();
        int count = schema.columnCount();
        writes = new Write[count];
        types = new ColumnType[count];
        metas = new int[count];
        lengths = new int[count];
        fixedSizes = new int[count];
        prefixes = new int[count];
        beforeAt = new int[count];
        afterAt = new int[count];
        byte[] codes = map.getColumnTypes();
        int[] metadata = map.getColumnMetadata();
        for (int i = 0; i < count; i++) {
            plan(i, codes[i] & 0xFF, metadata[i]);
        }
    }

    /**
     * The transcoder of a table version's rows under this table map, or null when the map has a
     * column whose values' size is not known here.
     */
    static RowTranscoder of(RowConverter converter, TableMapEventData map) {
        byte[] codes = map.getColumnTypes();
        int[] metadata = map.getColumnMetadata();
        if (codes.length != converter.schema().columnCount()
                || metadata == null
                || metadata.length != codes.length) {
            return null;
        }
        for (int i = 0; i < codes.length; i++) {
            if (sizingOf(codes[i] & 0xFF, metadata[i]) == null) {
                return null;
            }
        }
        return new RowTranscoder(converter, map);
    }

    /** Whether a rows event's images include every column, as this transcoder needs. */
    boolean readsAll(BinlogRows event) {
        int count = writes.length;
        return (event.beforeColumns() == null || event.beforeColumns().cardinality() == count)
                && (event.afterColumns() == null || event.afterColumns().cardinality() == count);
    }

    /**
     * Reads the row image at {@code at} as the before image.
     *
     * @return where the next image starts
     * @throws IllegalArgumentException naming table and column if the image runs past the event
     */
    int readBefore(BinlogRows event, int at) {
        rows = event;
        return scan(event.bytes(), at, event.length(), beforeAt);
    }

    /** Reads the row image at {@code at} as the after image; see {@link #readBefore}. */
    int readAfter(BinlogRows event, int at) {
        rows = event;
        return scan(event.bytes(), at, event.length(), afterAt);
    }

    @Override
    public boolean isNull(boolean after, int column) {
        return (after ? afterAt : beforeAt)[column] < 0;
    }

    @Override
    public void write(RowImageWriter out, boolean after, int column) {
        byte[] b = rows.bytes();
        int at = (after ? afterAt : beforeAt)[column];
        switch (writes[column]) {
            case SIGNED -> {
                int shift = 64 - 8 * fixedSizes[column];
                out.putInt64((littleEndian(b, at, fixedSizes[column]) << shift) >> shift);
            }
            case UNSIGNED -> out.putInt64(littleEndian(b, at, fixedSizes[column]));
            case UINT64 -> out.putUInt64Bits(littleEndian(b, at, 8));
            case FLOAT32 -> out.putFloat32Bits((int) littleEndian(b, at, 4));
            case FLOAT64 -> out.putFloat64Bits(littleEndian(b, at, 8));
            case DECIMAL -> out.putDecimal(unscaled(b, at, metas[column]), metas[column] >> 8);
            case DATE -> {
                int packed = (int) littleEndian(b, at, 3);
                out.putDate(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
            }
            case DATETIME2 -> {
                int date = dateTime2Date(b, at);
                out.putDateTime(
                        date >>> 9,
                        (date >>> 5) & 0x0F,
                        date & 0x1F,
                        dateTime2NanoOfDay(b, at, column));
            }
            case TIMESTAMP2 ->
                    out.putTimestamp(
                            bigEndian(b, at, 4),
                            (int) (fractionMicros(b, at + 4, metas[column]) * NANOS_PER_MICRO));
            case BYTES -> {
                int prefix = prefixes[column];
                out.putBytes(b, at + prefix, (int) littleEndian(b, at, prefix));
            }
            case PADDED_BYTES -> {
                int prefix = prefixes[column];
                out.putPaddedBytes(
                        b, at + prefix, (int) littleEndian(b, at, prefix), converter.width(column));
            }
            case CELL -> out.putValue(converter.convertCell(column, cell(column, at)));
        }
    }

    /**
     * The values of the image last read as before ({@code after == false}) or after image, as
     * {@link RowConverter#convert} gives them from the library's cells, for routes whose policies
     * need values: read from the bytes in place all the same.
     *
     * @throws IllegalArgumentException naming table and column if a value cannot be read
     */
    Object[] values(boolean after) {
        int[] offsets = after ? afterAt : beforeAt;
        byte[] b = rows.bytes();
        Object[] row = new Object[offsets.length];
        for (int i = 0; i < row.length; i++) {
            if (offsets[i] >= 0) {
                row[i] = value(i, b, offsets[i]);
            }
        }
        return row;
    }

    private Object value(int column, byte[] b, int at) {
        return switch (writes[column]) {
            case SIGNED -> {
                int shift = 64 - 8 * fixedSizes[column];
                yield (littleEndian(b, at, fixedSizes[column]) << shift) >> shift;
            }
            case UNSIGNED -> littleEndian(b, at, fixedSizes[column]);
            case UINT64 -> littleEndian(b, at, 8);
            case FLOAT32 -> Float.intBitsToFloat((int) littleEndian(b, at, 4));
            case FLOAT64 -> Double.longBitsToDouble(littleEndian(b, at, 8));
            case DECIMAL -> BigDecimal.valueOf(unscaled(b, at, metas[column]), metas[column] >> 8);
            case DATE -> date(column, (int) littleEndian(b, at, 3));
            case DATETIME2 -> {
                SqlDate date = date(column, dateTime2Date(b, at));
                try {
                    yield new SqlDateTime(date, dateTime2NanoOfDay(b, at, column));
                } catch (IllegalArgumentException e) {
                    throw unreadable(column, e);
                }
            }
            case TIMESTAMP2 ->
                    Instant.ofEpochSecond(
                            bigEndian(b, at, 4),
                            fractionMicros(b, at + 4, metas[column]) * NANOS_PER_MICRO);
            case BYTES -> {
                int prefix = prefixes[column];
                int from = at + prefix;
                yield Arrays.copyOfRange(b, from, from + (int) littleEndian(b, at, prefix));
            }
            case PADDED_BYTES -> {
                int prefix = prefixes[column];
                int from = at + prefix;
                int length = (int) littleEndian(b, at, prefix);
                byte[] padded = new byte[Math.max(length, converter.width(column))];
                System.arraycopy(b, from, padded, 0, length);
                yield padded;
            }
            case CELL -> converter.convertCell(column, cell(column, at));
        };
    }

    private SqlDate date(int column, int packed) {
        try {
            return new SqlDate(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
        } catch (IllegalArgumentException e) {
            throw unreadable(column, e);
        }
    }

    private IllegalArgumentException unreadable(int column, IllegalArgumentException e) {
        return new IllegalArgumentException(
                "binlog value out of range: table="
                        + schema.qualifiedName()
                        + ", column="
                        + schema.column(column).name()
                        + ", reason="
                        + e.getMessage(),
                e);
    }

    private Serializable cell(int column, int at) {
        try {
            Serializable cell =
                    rows.readCell(types[column], metas[column], lengths[column], at, rows.length());
            if (cell == null) {
                throw new IllegalArgumentException(
                        "binlog cell has no value: table="
                                + schema.qualifiedName()
                                + ", column="
                                + schema.column(column).name());
            }
            return cell;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "binlog cell could not be read: table="
                            + schema.qualifiedName()
                            + ", column="
                            + schema.column(column).name()
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Fills {@code offsets} with each column's value offset (-1: NULL); returns the image's end.
     */
    private int scan(byte[] b, int at, int end, int[] offsets) {
        int count = writes.length;
        int bitmapAt = at;
        at += (count + 7) / 8;
        if (at > end) {
            throw truncated(0, at, end);
        }
        for (int i = 0; i < count; i++) {
            if ((b[bitmapAt + (i >>> 3)] & (1 << (i & 7))) != 0) {
                offsets[i] = -1;
                continue;
            }
            offsets[i] = at;
            int size = fixedSizes[i];
            if (size < 0) {
                int prefix = prefixes[i];
                if (at + prefix > end) {
                    throw truncated(i, at + prefix, end);
                }
                size = prefix + (int) littleEndian(b, at, prefix);
                if (size < prefix) {
                    throw truncated(i, Integer.MAX_VALUE, end);
                }
            }
            at += size;
            if (at > end || at < 0) {
                throw truncated(i, at, end);
            }
        }
        return at;
    }

    private IllegalArgumentException truncated(int column, int needed, int end) {
        return new IllegalArgumentException(
                "binlog row image runs past its rows event: table="
                        + schema.qualifiedName()
                        + ", column="
                        + schema.column(column).name()
                        + ", needed="
                        + needed
                        + ", eventBytes="
                        + end);
    }

    private void plan(int i, int code, int meta) {
        ColumnType type = resolve(code, meta);
        types[i] = type;
        metas[i] = meta;
        lengths[i] = stringLength(code, meta);
        int[] sizing = sizingOf(code, meta);
        fixedSizes[i] = sizing[0];
        prefixes[i] = sizing[1];
        writes[i] = write(i, type, meta);
    }

    private Write write(int i, ColumnType type, int meta) {
        ValueType valueType = schema.column(i).type();
        Write write =
                switch (converter.kind(i)) {
                    case SIGNED ->
                            switch (type) {
                                case TINY, SHORT, INT24, LONG, LONGLONG -> Write.SIGNED;
                                default -> Write.CELL;
                            };
                    case UNSIGNED_8 -> type == ColumnType.TINY ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_16 -> type == ColumnType.SHORT ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_24 -> type == ColumnType.INT24 ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_32 -> type == ColumnType.LONG ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_64 -> type == ColumnType.LONGLONG ? Write.UINT64 : Write.CELL;
                    case AS_IS ->
                            switch (type) {
                                case FLOAT -> Write.FLOAT32;
                                case DOUBLE -> Write.FLOAT64;
                                case NEWDECIMAL -> (meta & 0xFF) <= 18 ? Write.DECIMAL : Write.CELL;
                                case DATE -> Write.DATE;
                                case DATETIME_V2 -> Write.DATETIME2;
                                case TIMESTAMP_V2 -> Write.TIMESTAMP2;
                                default -> Write.CELL;
                            };
                    case UTF8_TEXT, BYTES ->
                            switch (type) {
                                case VARCHAR, VAR_STRING, STRING, BLOB -> Write.BYTES;
                                default -> Write.CELL;
                            };
                    case BINARY_FIXED ->
                            type == ColumnType.STRING ? Write.PADDED_BYTES : Write.CELL;
                    default -> Write.CELL;
                };
        if (converter.compressed(i) || !fits(write, valueType)) {
            return Write.CELL;
        }
        return write;
    }

    /** Whether the column's value type is the one {@code write} produces; else the cell path. */
    private static boolean fits(Write write, ValueType type) {
        return switch (write) {
            case SIGNED, UNSIGNED -> type == ValueType.INT64;
            case UINT64 -> type == ValueType.UINT64;
            case FLOAT32 -> type == ValueType.FLOAT32;
            case FLOAT64 -> type == ValueType.FLOAT64;
            case DECIMAL -> type == ValueType.DECIMAL;
            case DATE -> type == ValueType.DATE;
            case DATETIME2 -> type == ValueType.DATETIME;
            case TIMESTAMP2 -> type == ValueType.TIMESTAMP;
            case BYTES -> type == ValueType.STRING || type == ValueType.BYTES;
            case PADDED_BYTES -> type == ValueType.BYTES;
            case CELL -> true;
        };
    }

    /** STRING's real type from its metadata (mysql's log_event_print_value), else the code's. */
    private static ColumnType resolve(int code, int meta) {
        if (code == ColumnType.STRING.getCode() && meta >= 256) {
            int meta0 = meta >> 8;
            if ((meta0 & 0x30) != 0x30) {
                code = meta0 | 0x30;
            } else if (meta0 == ColumnType.ENUM.getCode() || meta0 == ColumnType.SET.getCode()) {
                code = meta0;
            }
        }
        return ColumnType.byCode(code);
    }

    /** The length STRING's metadata gives (CHAR's bytes, ENUM's and SET's storage), else 0. */
    private static int stringLength(int code, int meta) {
        if (code != ColumnType.STRING.getCode()) {
            return 0;
        }
        if (meta < 256) {
            return meta;
        }
        int meta0 = meta >> 8;
        int meta1 = meta & 0xFF;
        return (meta0 & 0x30) != 0x30 ? meta1 | (((meta0 & 0x30) ^ 0x30) << 4) : meta1;
    }

    /**
     * {fixed size or -1, length prefix bytes} of a value of {@code type}, or null for a type whose
     * size is not known here. The sizes are the library's readers'.
     */
    private static int[] sizing(ColumnType type, int meta) {
        if (type == null) {
            return null;
        }
        return switch (type) {
            case TINY, YEAR -> new int[] {1, 0};
            case SHORT -> new int[] {2, 0};
            case INT24, DATE, TIME -> new int[] {3, 0};
            case LONG, FLOAT, TIMESTAMP -> new int[] {4, 0};
            case LONGLONG, DOUBLE, DATETIME -> new int[] {8, 0};
            case TIME_V2 -> new int[] {3 + (meta + 1) / 2, 0};
            case DATETIME_V2 -> new int[] {5 + (meta + 1) / 2, 0};
            case TIMESTAMP_V2 -> new int[] {4 + (meta + 1) / 2, 0};
            case NEWDECIMAL -> new int[] {decimalSize(meta & 0xFF, meta >> 8), 0};
            case BIT -> new int[] {((meta >> 8) * 8 + (meta & 0xFF) + 7) / 8, 0};
            case VARCHAR, VAR_STRING -> new int[] {-1, meta < 256 ? 1 : 2};
            case BLOB, GEOMETRY, JSON, VECTOR ->
                    meta >= 1 && meta <= 4 ? new int[] {-1, meta} : null;
            default -> null;
        };
    }

    /** The sizing of a column whose STRING metadata says its real type (CHAR, ENUM, SET). */
    private static int[] sizingOf(int code, int meta) {
        ColumnType type = resolve(code, meta);
        if (code == ColumnType.STRING.getCode()) {
            int length = stringLength(code, meta);
            if (type == ColumnType.ENUM || type == ColumnType.SET) {
                return new int[] {length, 0};
            }
            return new int[] {-1, length < 256 ? 1 : 2};
        }
        return sizing(type, meta);
    }

    private static int decimalSize(int precision, int scale) {
        int integral = precision - scale;
        return (integral / 9) * 4
                + DIGITS_TO_BYTES[integral % 9]
                + (scale / 9) * 4
                + DIGITS_TO_BYTES[scale % 9];
    }

    /**
     * The unscaled value of a packed DECIMAL of at most 18 digits (the server's {@code
     * bin2decimal}): groups of nine digits in four big-endian bytes, a shorter group first and
     * last, the sign in the first bit (set: positive) and every byte inverted for negative values.
     */
    static long unscaled(byte[] b, int at, int meta) {
        int precision = meta & 0xFF;
        int scale = meta >> 8;
        int integral = precision - scale;
        long invert = (b[at] & 0x80) != 0 ? 0 : -1L;
        // Groups in order: a short leading one, nine digits in four bytes each, a short trailing
        // one. The stored sign is the top bit of the first byte, in whichever group comes first.
        long value = 0;
        boolean first = true;
        int leading = DIGITS_TO_BYTES[integral % 9];
        if (leading > 0) {
            value = group(b, at, leading, invert, true);
            at += leading;
            first = false;
        }
        for (int g = integral / 9 + scale / 9; g > 0; g--, at += 4) {
            value = value * 1_000_000_000L + group(b, at, 4, invert, first);
            first = false;
        }
        int trailingDigits = scale % 9;
        if (trailingDigits > 0) {
            value =
                    value * POWERS_OF_TEN[trailingDigits]
                            + group(b, at, DIGITS_TO_BYTES[trailingDigits], invert, first);
        }
        return invert == 0 ? value : -value;
    }

    /** One group of digits: {@code bytes} big-endian, inverted for negative values. */
    private static long group(byte[] b, int at, int bytes, long invert, boolean first) {
        long value = bigEndian(b, at, bytes) ^ (invert & ((1L << (8 * bytes)) - 1));
        return first ? value ^ (0x80L << (8 * (bytes - 1))) : value;
    }

    /**
     * The date of a DATETIME2 (5 bytes big-endian: sign, year × 13 + month, day, hour, minute,
     * second; then the fraction), packed as DATE packs it: {@code year << 9 | month << 5 | day}.
     */
    private static int dateTime2Date(byte[] b, int at) {
        long ymd = (bigEndian(b, at, 5) - DATETIMEF_INT_OFS) >> 17;
        long yearMonth = ymd >> 5;
        return (int) ((yearMonth / 13) << 9 | (yearMonth % 13) << 5 | (ymd & 0x1F));
    }

    /** The nanoseconds since midnight of a DATETIME2. */
    private long dateTime2NanoOfDay(byte[] b, int at, int column) {
        long hms = (bigEndian(b, at, 5) - DATETIMEF_INT_OFS) & 0x1_FFFFL;
        long seconds = (hms >> 12) * 3600 + ((hms >> 6) & 0x3F) * 60 + (hms & 0x3F);
        return (seconds * 1_000_000L + fractionMicros(b, at + 5, metas[column])) * NANOS_PER_MICRO;
    }

    private static long fractionMicros(byte[] b, int at, int decimals) {
        int length = (decimals + 1) / 2;
        if (length == 0) {
            return 0;
        }
        long fraction = bigEndian(b, at, length);
        return switch (length) {
            case 1 -> fraction * 10_000;
            case 2 -> fraction * 100;
            default -> fraction;
        };
    }

    private static long littleEndian(byte[] b, int at, int bytes) {
        // The common widths spelled out: a loop or a VarHandle costs more on this path.
        return switch (bytes) {
            case 1 -> b[at] & 0xFFL;
            case 2 -> (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8;
            case 3 -> (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16;
            case 4 ->
                    (b[at] & 0xFFL)
                            | (b[at + 1] & 0xFFL) << 8
                            | (b[at + 2] & 0xFFL) << 16
                            | (b[at + 3] & 0xFFL) << 24;
            default -> {
                long value = 0;
                for (int i = bytes - 1; i >= 0; i--) {
                    value = (value << 8) | (b[at + i] & 0xFF);
                }
                yield value;
            }
        };
    }

    private static long bigEndian(byte[] b, int at, int bytes) {
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            value = (value << 8) | (b[at + i] & 0xFF);
        }
        return value;
    }
}
