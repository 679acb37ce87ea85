package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;
import java.util.Map;

/**
 * Decodes row images of a {@link BinlogRows} into the library's cells, for the columns and tables
 * not read in place: the library's readers, temporal cells lossless ({@link TemporalCells}),
 * character and binary cells the bytes the server wrote. It keeps its own cache of the table maps
 * it was shown, so that it can run on another thread than the binlog client's (whose cache the
 * client's deserializer changes as it reads ahead).
 *
 * <p>Not thread-safe: the thread that handles rows events owns one, and shows it each table map
 * before the rows under it.
 */
final class CellReader {

    private final LosslessRowDeserializers.RowsDeserializer cells;
    private final Map<Long, TableMapEventData> tableMaps;

    CellReader(
            LosslessRowDeserializers.RowsDeserializer cells,
            Map<Long, TableMapEventData> tableMaps) {
        this.cells = cells;
        this.tableMaps = tableMaps;
    }

    /** The table map the next rows of its table id are read under. */
    void tableMap(TableMapEventData map) {
        tableMaps.put(map.getTableId(), map);
    }

    /** A stream over the row images of {@code rows}, for {@link #row}. */
    static ByteArrayInputStream stream(BinlogRows rows) {
        return new ByteArrayInputStream(
                new java.io.ByteArrayInputStream(rows.bytes(), 0, rows.length()));
    }

    /** Decodes the next row image of {@code in} (of table {@code tableId}) into cells. */
    Serializable[] row(long tableId, BitSet included, ByteArrayInputStream in) throws IOException {
        return cells.row(tableId, included, in);
    }

    /** Decodes one cell at {@code offset} of {@code bytes}, for a column not read in place. */
    Serializable cell(ColumnType type, int meta, int length, byte[] bytes, int offset, int end)
            throws IOException {
        return cells.cell(
                type,
                meta,
                length,
                new ByteArrayInputStream(
                        new java.io.ByteArrayInputStream(bytes, offset, end - offset)));
    }
}
