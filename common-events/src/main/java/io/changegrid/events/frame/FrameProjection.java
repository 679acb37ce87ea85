package io.changegrid.events.frame;

import static io.changegrid.events.frame.FrameLayout.AFTER_LENGTH_OFFSET;
import static io.changegrid.events.frame.FrameLayout.BEFORE_LENGTH_OFFSET;
import static io.changegrid.events.frame.FrameLayout.CRC_OFFSET;
import static io.changegrid.events.frame.FrameLayout.HEADER_LENGTH;
import static io.changegrid.events.frame.FrameLayout.KEY_LENGTH_OFFSET;
import static io.changegrid.events.frame.FrameLayout.LENGTH_OFFSET;
import static io.changegrid.events.frame.FrameLayout.PARTITION_HASH_OFFSET;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * A column projection of one table schema version: the schema with only some columns (same table id
 * and version, so frames keep naming it), and the rewrite of a row-change frame into that schema,
 * header fields kept. The values of the columns left out are never written: they exist only in the
 * decoded source row, which is dropped.
 *
 * <p>The projected schema keeps the key only when every key column is kept, as a policy's transform
 * does: a partial key would not identify rows. Without it, the frame's key image is empty and its
 * partition hash becomes the table's ({@link KeyHash#ofTableId}), so the hash of a hidden key
 * cannot be turned back into its values.
 *
 * <p>A projected frame is never longer than its source (fewer values, a bitmap no wider), so it can
 * be written back over the source in place.
 *
 * <p>Immutable bound state; {@link #project} uses the caller's scratch objects, one set per thread.
 */
public final class FrameProjection {

    private final TableSchema source;
    private final TableSchema projected;
    private final int[] kept; // source column index per projected column

    private FrameProjection(TableSchema source, TableSchema projected, int[] kept) {
        this.source = source;
        this.projected = projected;
        this.kept = kept;
    }

    /**
     * The projection of {@code source} onto the columns named in {@code columns} (names it lacks
     * are ignored: a column may come and go with schema changes).
     *
     * @return null when no column of the table is kept: nothing of it may be sent
     */
    public static FrameProjection of(TableSchema source, Set<String> columns) {
        List<Column> out = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < source.columnCount(); i++) {
            if (columns.contains(source.column(i).name())) {
                out.add(source.column(i));
                indexes.add(i);
            }
        }
        if (out.isEmpty()) {
            return null;
        }
        boolean wholeKey = source.hasKey() && columns.containsAll(source.keyColumns());
        TableSchema projected =
                new TableSchema(
                        source.tableId(),
                        source.version(),
                        source.database(),
                        source.table(),
                        out,
                        wholeKey ? source.keyColumns() : List.of());
        return new FrameProjection(
                source, projected, indexes.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The schema the projected frames are written with. */
    public TableSchema projected() {
        return projected;
    }

    /** Whether every column is kept, so frames need no rewriting. */
    public boolean isIdentity() {
        return kept.length == source.columnCount() && projected.keySize() == source.keySize();
    }

    /**
     * Writes the projection of a checked row-change frame of the source schema to {@code out}.
     *
     * @param cursor scratch
     * @param crc scratch
     * @return the projected frame's length
     */
    public int project(EventFrame frame, ExpandableBuffer out, ByteCursor cursor, CRC32C crc) {
        Object[] before = null;
        Object[] after = null;
        if (frame.beforeLength() > 0) {
            cursor.wrap(frame.buffer(), frame.beforeOffset(), frame.beforeLength());
            before = keep(RowImageCodec.readRow(cursor, source));
        }
        if (frame.afterLength() > 0) {
            cursor.wrap(frame.buffer(), frame.afterOffset(), frame.afterLength());
            after = keep(RowImageCodec.readRow(cursor, source));
        }
        int start = out.position();
        ByteBuffer in = frame.buffer();
        int headerAndId = HEADER_LENGTH + frame.transactionIdLength();
        out.reserve(headerAndId);
        for (int i = 0; i < headerAndId; i++) {
            out.putByte(in.get(frame.offset() + i));
        }
        int keyAt = out.position();
        RowImageCodec.writeKey(out, projected, after != null ? after : before);
        int keyLength = out.position() - keyAt;
        int beforeLength = 0;
        if (before != null) {
            RowImageCodec.writeRow(out, projected, before);
            beforeLength = out.position() - keyAt - keyLength;
        }
        int afterLength = 0;
        if (after != null) {
            int afterAt = out.position();
            RowImageCodec.writeRow(out, projected, after);
            afterLength = out.position() - afterAt;
        }
        int length = out.position() - start;
        ByteBuffer bytes = out.byteBuffer();
        bytes.putInt(start + LENGTH_OFFSET, length);
        bytes.putInt(start + KEY_LENGTH_OFFSET, keyLength);
        bytes.putInt(start + BEFORE_LENGTH_OFFSET, beforeLength);
        bytes.putInt(start + AFTER_LENGTH_OFFSET, afterLength);
        if (!projected.hasKey()) {
            bytes.putInt(start + PARTITION_HASH_OFFSET, KeyHash.ofTableId(projected.tableId()));
        }
        bytes.putInt(start + CRC_OFFSET, FrameLayout.crc32c(bytes, start, length, crc));
        return length;
    }

    private Object[] keep(Object[] row) {
        Object[] out = new Object[kept.length];
        for (int i = 0; i < kept.length; i++) {
            out[i] = row[kept[i]];
        }
        return out;
    }
}
