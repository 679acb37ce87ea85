package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.changegrid.events.Operation;
import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Installs the row deserializers: each reads a rows event's head and copies its row images, once,
 * into a {@link BinlogRows}, so the fetcher can read captured rows in place; the rows of tables the
 * fetcher does not publish are not copied at all. Where values are needed, the same deserializer
 * decodes cells with the library's readers, except temporal cells, which are read losslessly
 * ({@link TemporalCells}); character and binary cells stay the bytes the server wrote.
 *
 * <p>Why the head is read here and not by the library: the table id comes first, and only once it
 * is read can the rows of a table that is not captured be left unread (the library's event
 * deserializer skips to the end of the event after its data deserializer returns). The head's
 * layout is the binlog's rows event post-header: table id (6 bytes), flags (2), for v2 events an
 * extra-data block whose length includes its own 2 bytes, the column count, then one bitmap of
 * included columns (two for updates: before, after); rows follow until the end of the event.
 */
final class LosslessRowDeserializers {

    private LosslessRowDeserializers() {}

    /**
     * Registers the row deserializers for every rows event type.
     *
     * @param skipped whether the rows of a binlog table id are left unread: its events then carry
     *     the table id and no rows. Asked on the binlog client's thread, after the listeners were
     *     handed every event before this one.
     * @param buffers where the row images are copied, shared by the row deserializers
     */
    static void install(
            EventDeserializer deserializer,
            Map<Long, TableMapEventData> tableMaps,
            LongPredicate skipped,
            RowBuffers buffers) {
        for (boolean extended : new boolean[] {false, true}) {
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
                    new RowsDeserializer(Operation.INSERT, tableMaps, skipped, extended, buffers));
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
                    new RowsDeserializer(Operation.UPDATE, tableMaps, skipped, extended, buffers));
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
                    new RowsDeserializer(Operation.DELETE, tableMaps, skipped, extended, buffers));
        }
    }

    /**
     * A reader of the library's cells for the thread that handles rows events, with its own
     * table-map cache ({@link CellReader#tableMap}), as the row deserializers read them.
     */
    static CellReader cellReader() {
        Map<Long, TableMapEventData> tableMaps = BinlogClientFactory.tableMapCache();
        RowsDeserializer cells =
                new RowsDeserializer(
                        Operation.INSERT, tableMaps, id -> false, false, RowBuffers.single());
        // The library's settings of a cell reader are its own; its event deserializer applies
        // them to the deserializers it holds, the same ones the binlog client's deserializer has.
        EventDeserializer settings = new EventDeserializer();
        settings.setEventDataDeserializer(EventType.WRITE_ROWS, cells);
        settings.setCompatibilityMode(
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return new CellReader(cells, tableMaps);
    }

    /**
     * Reads one kind of rows event. Not thread-safe: the binlog client's thread owns it, and the
     * bytes of the {@link BinlogRows} it returns are reused as {@link RowBuffers} says.
     */
    static final class RowsDeserializer extends AbstractRowsEventDataDeserializer<BinlogRows> {
        private static final byte[] NO_BYTES = new byte[0];

        private final Operation operation;
        private final LongPredicate skipped;
        private final boolean extended;
        private final RowBuffers buffers;

        RowsDeserializer(
                Operation operation,
                Map<Long, TableMapEventData> tableMaps,
                LongPredicate skipped,
                boolean extended,
                RowBuffers buffers) {
            super(tableMaps);
            this.operation = operation;
            this.skipped = skipped;
            this.extended = extended;
            this.buffers = buffers;
        }

        @Override
        public BinlogRows deserialize(ByteArrayInputStream in) throws IOException {
            long tableId = in.readLong(6);
            if (skipped.test(tableId)) {
                return new BinlogRows(operation, tableId, null, null, NO_BYTES, 0);
            }
            in.skip(2); // flags
            if (extended) {
                int extraLength = in.readInteger(2);
                in.skip(extraLength - 2);
            }
            int columns = in.readPackedInteger();
            BitSet before = operation != Operation.INSERT ? in.readBitSet(columns, true) : null;
            BitSet after = operation == Operation.UPDATE ? in.readBitSet(columns, true) : null;
            if (operation == Operation.INSERT) {
                after = in.readBitSet(columns, true);
            }
            int length = in.available();
            byte[] buffer = buffers.take(length);
            in.fill(buffer, 0, length);
            return new BinlogRows(operation, tableId, before, after, buffer, length);
        }

        /** The next row image of {@code in} as the library's cells, temporal ones lossless. */
        Serializable[] row(long tableId, BitSet included, ByteArrayInputStream in)
                throws IOException {
            return deserializeRow(tableId, included, in);
        }

        /** One cell, as {@link #row} reads it. */
        Serializable cell(ColumnType type, int meta, int length, ByteArrayInputStream in)
                throws IOException {
            return deserializeCell(type, meta, length, in);
        }

        @Override
        protected Serializable deserializeCell(
                ColumnType type, int meta, int length, ByteArrayInputStream in) throws IOException {
            return TemporalCells.handles(type)
                    ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }
}
