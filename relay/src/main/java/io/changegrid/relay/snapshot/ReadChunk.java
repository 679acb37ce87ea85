package io.changegrid.relay.snapshot;

import io.changegrid.events.schema.TableSchema;
import java.util.List;

/**
 * One chunk as read from the source: its rows in key order, between two watermarks.
 *
 * @param table the source schema version the rows were read with
 * @param low the watermark before the read
 * @param high the watermark after the read; the fetcher has read past it
 * @param rows the rows read, in key order
 * @param last whether the table's end was reached (fewer rows than asked)
 */
public record ReadChunk(TableSchema table, long low, long high, List<Object[]> rows, boolean last) {

    /** The last row read, or null for an empty chunk. */
    public Object[] lastRow() {
        return rows.isEmpty() ? null : rows.get(rows.size() - 1);
    }
}
