package io.changegrid.relay.snapshot;

import io.changegrid.events.schema.TableSchema;
import java.util.List;

/**
 * Called between a chunk's read and its high watermark. The relay runs none; tests install one that
 * writes to the source there, to force the log to touch keys of the chunk inside its window.
 */
@FunctionalInterface
public interface ChunkHook {

    /** Does nothing. */
    ChunkHook NONE = (table, rows) -> {};

    /** The chunk just read: {@code rows} of {@code table}, before the high watermark is taken. */
    void betweenWatermarks(TableSchema table, List<Object[]> rows) throws Exception;
}
