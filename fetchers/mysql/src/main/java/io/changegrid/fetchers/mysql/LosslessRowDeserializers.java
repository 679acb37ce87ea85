package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.DeleteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.UpdateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.WriteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Installs row deserializers that read temporal cells losslessly ({@link TemporalCells}), leave
 * character and binary cells as the bytes the server wrote (so UTF-8 text is copied into frames
 * without being decoded and re-encoded), and do not deserialize the rows of tables the fetcher does
 * not publish.
 *
 * <p>Why the rows events' head is read here and not by the library: the table id comes first, and
 * only once it is read can the rows of a table that is not captured be left unread (the library's
 * event deserializer skips to the end of the event after its data deserializer returns). A relay
 * that captures a share of a source's tables, as relays splitting a source by table do, then pays
 * the library's per-cell work for its share only. The head's layout is the binlog's rows event
 * post-header: table id (6 bytes), flags (2), for v2 events an extra-data block whose length
 * includes its own 2 bytes, the column count, then one bitmap of included columns (two for updates:
 * before, after); rows follow until the end of the event.
 */
final class LosslessRowDeserializers {

    private LosslessRowDeserializers() {}

    /**
     * Registers the lossless row deserializers for every rows event type.
     *
     * @param skipped whether the rows of a binlog table id are left unread: its events then carry
     *     the table id and no rows. Asked on the binlog client's thread, after the listeners saw
     *     every event before this one.
     */
    static void install(
            EventDeserializer deserializer,
            Map<Long, TableMapEventData> tableMaps,
            LongPredicate skipped) {
        for (boolean extended : new boolean[] {false, true}) {
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
                    new Write(tableMaps, skipped, extended));
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
                    new Update(tableMaps, skipped, extended));
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
                    new Delete(tableMaps, skipped, extended));
        }
    }

    /** Reads the head after the table id up to the column count. */
    private static int columnCount(ByteArrayInputStream in, boolean extended) throws IOException {
        in.skip(2); // flags
        if (extended) {
            int extraLength = in.readInteger(2);
            in.skip(extraLength - 2);
        }
        return in.readPackedInteger();
    }

    private static final class Write extends WriteRowsEventDataDeserializer {
        private final LongPredicate skipped;
        private final boolean extended;

        Write(Map<Long, TableMapEventData> tableMaps, LongPredicate skipped, boolean extended) {
            super(tableMaps);
            this.skipped = skipped;
            this.extended = extended;
        }

        @Override
        public WriteRowsEventData deserialize(ByteArrayInputStream in) throws IOException {
            WriteRowsEventData data = new WriteRowsEventData();
            long tableId = in.readLong(6);
            data.setTableId(tableId);
            if (skipped.test(tableId)) {
                data.setRows(List.of());
                return data;
            }
            data.setIncludedColumns(in.readBitSet(columnCount(in, extended), true));
            List<Serializable[]> rows = new ArrayList<>();
            while (in.available() > 0) {
                rows.add(deserializeRow(tableId, data.getIncludedColumns(), in));
            }
            data.setRows(rows);
            return data;
        }

        @Override
        protected Serializable deserializeCell(
                ColumnType type, int meta, int length, ByteArrayInputStream in) throws IOException {
            return TemporalCells.handles(type)
                    ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    private static final class Update extends UpdateRowsEventDataDeserializer {
        private final LongPredicate skipped;
        private final boolean extended;

        Update(Map<Long, TableMapEventData> tableMaps, LongPredicate skipped, boolean extended) {
            super(tableMaps);
            this.skipped = skipped;
            this.extended = extended;
        }

        @Override
        public UpdateRowsEventData deserialize(ByteArrayInputStream in) throws IOException {
            UpdateRowsEventData data = new UpdateRowsEventData();
            long tableId = in.readLong(6);
            data.setTableId(tableId);
            if (skipped.test(tableId)) {
                data.setRows(List.of());
                return data;
            }
            int columns = columnCount(in, extended);
            data.setIncludedColumnsBeforeUpdate(in.readBitSet(columns, true));
            data.setIncludedColumns(in.readBitSet(columns, true));
            List<Map.Entry<Serializable[], Serializable[]>> rows = new ArrayList<>();
            while (in.available() > 0) {
                Serializable[] before =
                        deserializeRow(tableId, data.getIncludedColumnsBeforeUpdate(), in);
                Serializable[] after = deserializeRow(tableId, data.getIncludedColumns(), in);
                rows.add(new AbstractMap.SimpleEntry<>(before, after));
            }
            data.setRows(rows);
            return data;
        }

        @Override
        protected Serializable deserializeCell(
                ColumnType type, int meta, int length, ByteArrayInputStream in) throws IOException {
            return TemporalCells.handles(type)
                    ? TemporalCells.read(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    private static final class Delete extends DeleteRowsEventDataDeserializer {
        private final LongPredicate skipped;
        private final boolean extended;

        Delete(Map<Long, TableMapEventData> tableMaps, LongPredicate skipped, boolean extended) {
            super(tableMaps);
            this.skipped = skipped;
            this.extended = extended;
        }

        @Override
        public DeleteRowsEventData deserialize(ByteArrayInputStream in) throws IOException {
            DeleteRowsEventData data = new DeleteRowsEventData();
            long tableId = in.readLong(6);
            data.setTableId(tableId);
            if (skipped.test(tableId)) {
                data.setRows(List.of());
                return data;
            }
            data.setIncludedColumns(in.readBitSet(columnCount(in, extended), true));
            List<Serializable[]> rows = new ArrayList<>();
            while (in.available() > 0) {
                rows.add(deserializeRow(tableId, data.getIncludedColumns(), in));
            }
            data.setRows(rows);
            return data;
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
