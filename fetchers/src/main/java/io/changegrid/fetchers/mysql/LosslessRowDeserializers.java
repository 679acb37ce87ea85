package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.DeleteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.UpdateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.WriteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;

/**
 * Installs row deserializers that read temporal cells losslessly ({@link TemporalCells}) and leave
 * character and binary cells as the bytes the server wrote, so that UTF-8 text is copied into
 * frames without being decoded and re-encoded.
 */
final class LosslessRowDeserializers {

    private LosslessRowDeserializers() {}

    /** Registers the lossless row deserializers for every rows event type. */
    static void install(EventDeserializer deserializer, Map<Long, TableMapEventData> tableMaps) {
        for (boolean extended : new boolean[] {false, true}) {
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
                    new Write(tableMaps).setMayContainExtraInformation(extended));
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
                    new Update(tableMaps).setMayContainExtraInformation(extended));
            deserializer.setEventDataDeserializer(
                    extended ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
                    new Delete(tableMaps).setMayContainExtraInformation(extended));
        }
    }

    private static final class Write extends WriteRowsEventDataDeserializer {
        Write(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
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
        Update(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
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
        Delete(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
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
