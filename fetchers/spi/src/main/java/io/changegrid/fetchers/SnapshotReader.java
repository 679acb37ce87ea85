package io.changegrid.fetchers;

import io.changegrid.events.schema.TableSchema;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads a source's tables for a snapshot, read-only and lock-free (docs/bootstrap.md): the source's
 * log position as an SCN bound (a <em>watermark</em>), and short primary-key range reads. The relay
 * calls {@link #watermark()}, {@link #readChunk}, {@link #watermark()} again, and drops from the
 * chunk every key the log touched in between; the reader itself knows nothing of the timeline.
 *
 * <p>A provider opens one with {@link io.changegrid.fetchers.FetcherProvider#openSnapshotReader};
 * it holds one plain JDBC connection of its own, never the fetcher's.
 *
 * <p>Threading: not thread-safe; one caller at a time (the relay serialises chunk reads).
 */
public interface SnapshotReader extends AutoCloseable {

    /**
     * The source's log position now, on the SCN scale of the fetcher's timeline: every transaction
     * the log held when this was called has an SCN below it, every later one an SCN at or above it.
     *
     * @throws SQLException if the source cannot be asked
     */
    long watermark() throws SQLException;

    /**
     * Reads at most {@code limit} rows of {@code table} whose primary key is above {@code
     * afterKey}, in key order, in one short statement.
     *
     * @param table the source schema version the rows are read with (the fetcher's latest): one
     *     value per column in its order, of the Java types its value types name, exactly as the
     *     fetcher would publish them
     * @param afterKey the last key read, one value per key column in key order, or {@code null} for
     *     the table's first rows
     * @return the rows; fewer than {@code limit} means the table's end was reached
     * @throws NoPrimaryKeyException if the table has no primary key
     * @throws UnsupportedSnapshotTypeException if a column's type cannot be read for a snapshot yet
     * @throws SQLException if the source cannot be read
     */
    List<Object[]> readChunk(TableSchema table, Object[] afterKey, int limit) throws SQLException;

    /** Closes the reader's connection. */
    @Override
    void close();
}
