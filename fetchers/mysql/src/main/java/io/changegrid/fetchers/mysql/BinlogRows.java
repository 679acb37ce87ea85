package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.changegrid.events.Operation;
import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;

/**
 * One rows event as the binlog carries it: the table id, which columns its images include, and the
 * row images' bytes, not yet decoded. The fetcher reads captured tables' rows from these bytes in
 * place ({@link RowTranscoder}), or decodes them cell by cell with the library ({@link #readCells})
 * where it needs values.
 *
 * <p>The bytes belong to the deserializer that read the event and are reused for the next rows
 * event: they are valid while the binlog client's listeners handle this event, which happens on the
 * client's thread before it reads the next one. Nothing may keep them past that.
 */
final class BinlogRows implements EventData {

    private static final long serialVersionUID = 1L;

    private final Operation operation;
    private final long tableId;
    private final BitSet beforeColumns;
    private final BitSet afterColumns;
    private final transient byte[] bytes;
    private final int length;
    private final transient LosslessRowDeserializers.RowsDeserializer cells;

    BinlogRows(
            Operation operation,
            long tableId,
            BitSet beforeColumns,
            BitSet afterColumns,
            byte[] bytes,
            int length,
            LosslessRowDeserializers.RowsDeserializer cells) {
        this.operation = operation;
        this.tableId = tableId;
        this.beforeColumns = beforeColumns;
        this.afterColumns = afterColumns;
        this.bytes = bytes;
        this.length = length;
        this.cells = cells;
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

    /** A stream over the row images for {@link #readCells}. */
    ByteArrayInputStream stream() {
        return new ByteArrayInputStream(new java.io.ByteArrayInputStream(bytes, 0, length));
    }

    /** Decodes the next row image of {@code in} into the library's cells. */
    Serializable[] readCells(ByteArrayInputStream in, BitSet included) throws IOException {
        return cells.row(tableId, included, in);
    }

    /** Decodes one cell at {@code offset} of the row images, for columns not read in place. */
    Serializable readCell(
            com.github.shyiko.mysql.binlog.event.deserialization.ColumnType type,
            int meta,
            int length,
            int offset,
            int end)
            throws IOException {
        return cells.cell(
                type,
                meta,
                length,
                new ByteArrayInputStream(
                        new java.io.ByteArrayInputStream(bytes, offset, end - offset)));
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
