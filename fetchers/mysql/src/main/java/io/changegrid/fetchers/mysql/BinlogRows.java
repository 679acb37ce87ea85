package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;
import io.changegrid.events.Operation;
import java.util.BitSet;

/**
 * One rows event as the binlog carries it: the table id, which columns its images include, and the
 * row images' bytes, not yet decoded. The fetcher reads captured tables' rows from these bytes in
 * place ({@link RowTranscoder}), or decodes them cell by cell with the library ({@link CellReader})
 * where it needs values.
 *
 * <p>The bytes belong to the deserializer's {@link RowBuffers} and are reused for a later rows
 * event: they are valid while this event is handled, on the binlog client's thread before it reads
 * the next event, or on the {@link FetchPipeline}'s encoder thread before the ring comes round.
 * Nothing may keep them past that.
 */
final class BinlogRows implements EventData {

    private static final long serialVersionUID = 1L;

    private final Operation operation;
    private final long tableId;
    private final BitSet beforeColumns;
    private final BitSet afterColumns;
    private final transient byte[] bytes;
    private final int length;

    BinlogRows(
            Operation operation,
            long tableId,
            BitSet beforeColumns,
            BitSet afterColumns,
            byte[] bytes,
            int length) {
        this.operation = operation;
        this.tableId = tableId;
        this.beforeColumns = beforeColumns;
        this.afterColumns = afterColumns;
        this.bytes = bytes;
        this.length = length;
    }

    /** INSERT, UPDATE or DELETE. */
    Operation operation() {
        return operation;
    }

    long tableId() {
        return tableId;
    }

    /** The columns the before images include; null for inserts. */
    BitSet beforeColumns() {
        return beforeColumns;
    }

    /** The columns the after images include; null for deletes. */
    BitSet afterColumns() {
        return afterColumns;
    }

    /** The row images, back to back, in {@code [0, length())}; empty for a skipped table. */
    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    @Override
    public String toString() {
        return "BinlogRows{operation="
                + operation
                + ", tableId="
                + tableId
                + ", bytes="
                + length
                + "}";
    }
}
