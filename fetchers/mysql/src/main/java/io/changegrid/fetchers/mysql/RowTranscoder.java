package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.changegrid.events.frame.RowImageWriter;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.fetchers.mysql.RowLayout.Write;
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

    private final RowConverter converter;
    private final TableSchema schema;

    // The layout's arrays, read per value: fields of this class, one load from the reader.
    private final Write[] writes;
    private final int[] metas;
    private final int[] fixedSizes;
    private final int[] prefixes;

    private final RowLayout layout;
    private final int[] beforeAt;
    private final int[] afterAt;
    private final CellReader cells;
    private BinlogRows rows;

    private RowTranscoder(RowConverter converter, RowLayout layout, CellReader cells) {
        this.converter = converter;
        this.layout = layout;
        this.cells = cells;
        this.schema = converter.schema();
        this.writes = layout.writes;
        this.metas = layout.metas;
        this.fixedSizes = layout.fixedSizes;
        this.prefixes = layout.prefixes;
        int count = writes.length;
        beforeAt = new int[count];
        afterAt = new int[count];
    }

    /**
     * The transcoder of a table version's rows under this table map, or null when the map has a
     * column whose values' size is not known here.
     *
     * @param cells reads the columns not read in place, on the thread that reads the rows
     */
    static RowTranscoder of(RowConverter converter, TableMapEventData map, CellReader cells) {
        RowLayout layout = RowLayout.of(converter, map);
        return layout == null ? null : new RowTranscoder(converter, layout, cells);
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

    /**
     * Kept under C2's size limit for inlining a hot method ({@code FreqInlineSize}, 325 bytes of
     * bytecode; this is 311), as it is called for every column written: the longer cases are
     * methods of their own. At 456 bytes every column written was a call.
     */
    @Override
    public void write(RowImageWriter out, boolean after, int column) {
        byte[] b = rows.bytes();
        int at = (after ? afterAt : beforeAt)[column];
        switch (writes[column]) {
            case SIGNED -> out.putInt64(signed(b, at, column));
            case UNSIGNED -> out.putInt64(StoredBytes.littleEndian(b, at, fixedSizes[column]));
            case UINT64 -> out.putUInt64Bits(StoredBytes.littleEndian(b, at, 8));
            case FLOAT32 -> out.putFloat32Bits((int) StoredBytes.littleEndian(b, at, 4));
            case FLOAT64 -> out.putFloat64Bits(StoredBytes.littleEndian(b, at, 8));
            case DECIMAL -> writeDecimal(out, b, at, metas[column]);
            case DATE -> writeDate(out, (int) StoredBytes.littleEndian(b, at, 3));
            case DATETIME2 -> writeDateTime(out, b, at, column);
            case TIMESTAMP2 -> writeTimestamp(out, b, at, column);
            case BYTES -> {
                int prefix = prefixes[column];
                out.putBytes(b, at + prefix, (int) StoredBytes.littleEndian(b, at, prefix));
            }
            case PADDED_BYTES -> writePadded(out, b, at, column);
            case CELL -> out.putValue(converter.convertCell(column, cell(column, at)));
        }
    }

    /** A signed integer of the column's size, sign-extended. */
    private long signed(byte[] b, int at, int column) {
        int shift = 64 - 8 * fixedSizes[column];
        return (StoredBytes.littleEndian(b, at, fixedSizes[column]) << shift) >> shift;
    }

    private static void writeDecimal(RowImageWriter out, byte[] b, int at, int meta) {
        out.putDecimal(StoredBytes.unscaledDecimal(b, at, meta), meta >> 8);
    }

    private static void writeDate(RowImageWriter out, int packed) {
        out.putDate(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
    }

    private void writeDateTime(RowImageWriter out, byte[] b, int at, int column) {
        long stored = StoredBytes.bigEndian(b, at, 5);
        int date = TemporalCells.dateTimeV2Date(stored);
        out.putDateTime(
                date >>> 9,
                (date >>> 5) & 0x0F,
                date & 0x1F,
                TemporalCells.dateTimeV2NanoOfDay(stored, fractionMicros(b, at + 5, column)));
    }

    private void writeTimestamp(RowImageWriter out, byte[] b, int at, int column) {
        out.putTimestamp(
                StoredBytes.bigEndian(b, at, 4),
                (int) (fractionMicros(b, at + 4, column) * 1_000L));
    }

    private void writePadded(RowImageWriter out, byte[] b, int at, int column) {
        int prefix = prefixes[column];
        out.putPaddedBytes(
                b,
                at + prefix,
                (int) StoredBytes.littleEndian(b, at, prefix),
                converter.width(column));
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
            case SIGNED -> signed(b, at, column);
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
                            layout.types[column],
                            metas[column],
                            layout.lengths[column],
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
}
