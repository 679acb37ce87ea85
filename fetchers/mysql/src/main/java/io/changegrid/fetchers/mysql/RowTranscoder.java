package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.changegrid.events.frame.RowImageWriter;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import io.changegrid.policy.capture.SourceRow;
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
 * <p>Routes whose policies need values get them from the same bytes ({@link #value}, {@link
 * #values}), as {@link RowConverter} would give them from the library's cells: only the columns the
 * predicate reads and the transform computes, the others written in place.
 *
 * <p>Not thread-safe: the fetcher's thread reads one image pair at a time into it.
 */
final class RowTranscoder implements SourceRow {

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
    private final CellReader cells;
    private BinlogRows rows;

    private RowTranscoder(RowConverter converter, TableMapEventData map, CellReader cells) {
        this.converter = converter;
        this.cells = cells;
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
     *
     * @param cells reads the columns not read in place, on the thread that reads the rows
     */
    static RowTranscoder of(RowConverter converter, TableMapEventData map, CellReader cells) {
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
        return new RowTranscoder(converter, map, cells);
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
        take(event);
        return scan(event.bytes(), at, event.length(), beforeAt);
    }

    /** Reads the row image at {@code at} as the after image; see {@link #readBefore}. */
    int readAfter(BinlogRows event, int at) {
        take(event);
        return scan(event.bytes(), at, event.length(), afterAt);
    }

    /**
     * Reads from {@code event} from now on. Stored only when it changes (a rows event holds many
     * images): a reference store into this long-lived transcoder pays G1's card-marking fence.
     */
    private void take(BinlogRows event) {
        if (rows != event) {
            rows = event;
        }
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
                out.putInt64(
                        (StoredBytes.littleEndian(b, at, fixedSizes[column]) << shift) >> shift);
            }
            case UNSIGNED -> out.putInt64(StoredBytes.littleEndian(b, at, fixedSizes[column]));
            case UINT64 -> out.putUInt64Bits(StoredBytes.littleEndian(b, at, 8));
            case FLOAT32 -> out.putFloat32Bits((int) StoredBytes.littleEndian(b, at, 4));
            case FLOAT64 -> out.putFloat64Bits(StoredBytes.littleEndian(b, at, 8));
            case DECIMAL ->
                    out.putDecimal(
                            StoredBytes.unscaledDecimal(b, at, metas[column]), metas[column] >> 8);
            case DATE -> {
                int packed = (int) StoredBytes.littleEndian(b, at, 3);
                out.putDate(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
            }
            case DATETIME2 -> {
                long stored = StoredBytes.bigEndian(b, at, 5);
                int date = TemporalCells.dateTimeV2Date(stored);
                out.putDateTime(
                        date >>> 9,
                        (date >>> 5) & 0x0F,
                        date & 0x1F,
                        TemporalCells.dateTimeV2NanoOfDay(
                                stored, fractionMicros(b, at + 5, column)));
            }
            case TIMESTAMP2 ->
                    out.putTimestamp(
                            StoredBytes.bigEndian(b, at, 4),
                            (int) (fractionMicros(b, at + 4, column) * 1_000L));
            case BYTES -> {
                int prefix = prefixes[column];
                out.putBytes(b, at + prefix, (int) StoredBytes.littleEndian(b, at, prefix));
            }
            case PADDED_BYTES -> {
                int prefix = prefixes[column];
                out.putPaddedBytes(
                        b,
                        at + prefix,
                        (int) StoredBytes.littleEndian(b, at, prefix),
                        converter.width(column));
            }
            case CELL -> out.putValue(converter.convertCell(column, cell(column, at)));
        }
    }

    /**
     * One value of the image last read as before ({@code after == false}) or after image, as {@link
     * #values} gives it.
     */
    @Override
    public Object value(boolean after, int column) {
        int at = (after ? afterAt : beforeAt)[column];
        return at < 0 ? null : value(column, rows.bytes(), at);
    }

    /** The span of a text or binary value, whose bytes {@link #value} copies. */
    @Override
    public long valueSpan(boolean after, int column) {
        int at = (after ? afterAt : beforeAt)[column];
        if (at < 0 || writes[column] != Write.BYTES) {
            return -1;
        }
        int prefix = prefixes[column];
        return SourceRow.span(
                at + prefix, (int) StoredBytes.littleEndian(rows.bytes(), at, prefix));
    }

    @Override
    public byte[] valueBytes() {
        return rows.bytes();
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
                yield (StoredBytes.littleEndian(b, at, fixedSizes[column]) << shift) >> shift;
            }
            case UNSIGNED -> StoredBytes.littleEndian(b, at, fixedSizes[column]);
            case UINT64 -> StoredBytes.littleEndian(b, at, 8);
            case FLOAT32 -> Float.intBitsToFloat((int) StoredBytes.littleEndian(b, at, 4));
            case FLOAT64 -> Double.longBitsToDouble(StoredBytes.littleEndian(b, at, 8));
            case DECIMAL ->
                    BigDecimal.valueOf(
                            StoredBytes.unscaledDecimal(b, at, metas[column]), metas[column] >> 8);
            case DATE -> date(column, (int) StoredBytes.littleEndian(b, at, 3));
            case DATETIME2 -> {
                long stored = StoredBytes.bigEndian(b, at, 5);
                SqlDate date = date(column, TemporalCells.dateTimeV2Date(stored));
                try {
                    yield new SqlDateTime(
                            date,
                            TemporalCells.dateTimeV2NanoOfDay(
                                    stored, fractionMicros(b, at + 5, column)));
                } catch (IllegalArgumentException e) {
                    throw unreadable(column, e);
                }
            }
            case TIMESTAMP2 ->
                    Instant.ofEpochSecond(
                            StoredBytes.bigEndian(b, at, 4),
                            fractionMicros(b, at + 4, column) * 1_000L);
            case BYTES -> {
                int prefix = prefixes[column];
                int from = at + prefix;
                yield Arrays.copyOfRange(
                        b, from, from + (int) StoredBytes.littleEndian(b, at, prefix));
            }
            case PADDED_BYTES -> {
                int prefix = prefixes[column];
                int from = at + prefix;
                int length = (int) StoredBytes.littleEndian(b, at, prefix);
                byte[] padded = new byte[Math.max(length, converter.width(column))];
                System.arraycopy(b, from, padded, 0, length);
                yield padded;
            }
            case CELL -> converter.convertCell(column, cell(column, at));
        };
    }

    /** The fraction of a TIMESTAMP2 or DATETIME2 column's value at {@code at}, in microseconds. */
    private long fractionMicros(byte[] b, int at, int column) {
        int length = (metas[column] + 1) / 2;
        return TemporalCells.fractionMicros(length, StoredBytes.bigEndian(b, at, length));
    }

    private SqlDate date(int column, int packed) {
        try {
            return TemporalCells.date(packed);
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
                    cells.cell(
                            types[column],
                            metas[column],
                            lengths[column],
                            rows.bytes(),
                            at,
                            rows.length());
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
                size = prefix + (int) StoredBytes.littleEndian(b, at, prefix);
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
            case NEWDECIMAL -> new int[] {StoredBytes.decimalSize(meta & 0xFF, meta >> 8), 0};
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
}
