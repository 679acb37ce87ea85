package io.changegrid.appliers.batch;

import io.changegrid.appliers.schema.TargetTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A lane's row changes of tables written in source commit order ({@link TargetTable#sourceOrder}):
 * every change as it came (none coalesced away), written in that order. Consecutive changes with
 * the same statement go in one JDBC batch, and each batch runs before the next is bound, so the
 * target passes through the source's own states, where the source's unique keys and foreign keys
 * held.
 *
 * <p>No upsert is used: a row the source inserted is a plain INSERT where the lane tries those
 * first; any other image is an UPDATE by primary key (of the changed columns, or of all) and, if it
 * finds no row, a plain INSERT. A unique key that meets another row then fails and stops the
 * applier, where MariaDB's {@code ON DUPLICATE KEY UPDATE} would overwrite that other row.
 *
 * <p>Not thread-safe: filled on the dispatcher thread, written on the lane's committing thread,
 * never both at once.
 */
final class SourceOrderWrites {

    private record Entry(TargetTable table, RowKey key, Lane.Change change) {}

    private enum Kind {
        DELETE,
        INSERT,
        UPDATE
    }

    private final Connection connection;
    private final List<Entry> entries = new ArrayList<>();
    private final Map<TargetTable, PreparedStatement> inserts = new HashMap<>();
    private final Map<TargetTable, PreparedStatement> deletes = new HashMap<>();
    private final Map<TargetTable, BitSet> wholeImages = new HashMap<>();
    private final PreparedUpdates updates = new PreparedUpdates();

    SourceOrderWrites(Connection connection) {
        this.connection = connection;
    }

    void add(TargetTable table, RowKey key, Lane.Change change) {
        entries.add(new Entry(table, key, change));
    }

    /** Changes waiting for the next commit. */
    int size() {
        return entries.size();
    }

    /** Whether a change of this row waits here. */
    boolean holds(TargetTable table, RowKey key) {
        for (Entry entry : entries) {
            if (entry.table() == table && entry.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    void clear() {
        entries.clear();
    }

    /**
     * Writes every change in order in the open transaction.
     *
     * @param plainInserts whether rows the source inserted are written by a plain INSERT (else as
     *     any other image)
     * @return the rows written
     */
    long write(boolean plainInserts) throws SQLException {
        int i = 0;
        while (i < entries.size()) {
            Entry first = entries.get(i);
            TargetTable table = first.table();
            Kind kind = kindOf(first.change(), plainInserts);
            BitSet columns = kind == Kind.UPDATE ? columnsOf(first) : null;
            StatementBatch batch = new StatementBatch(table, prepare(table, kind, columns));
            int end = i;
            while (end < entries.size()) {
                Entry entry = entries.get(end);
                if (entry.table() != table
                        || kindOf(entry.change(), plainInserts) != kind
                        || (kind == Kind.UPDATE && !columnsOf(entry).equals(columns))) {
                    break;
                }
                Lane.Change change = entry.change();
                batch.add(
                        entry.key(),
                        change,
                        switch (kind) {
                            case DELETE -> s -> table.bindKey(s, entry.key().values());
                            case INSERT -> s -> table.bindRow(s, change.row(), change.version());
                            case UPDATE -> s -> table.bindUpdate(s, change.row(), columns);
                        });
                end++;
            }
            int[] counts = batch.execute();
            if (kind == Kind.UPDATE) {
                insertMissing(table, i, counts);
            }
            i = end;
        }
        return entries.size();
    }

    /** Inserts the rows of the updates from {@code start} whose update count was 0. */
    private void insertMissing(TargetTable table, int start, int[] counts) throws SQLException {
        StatementBatch missing = null;
        for (int k = 0; k < counts.length; k++) {
            if (counts[k] == 0) {
                if (missing == null) {
                    missing = new StatementBatch(table, prepare(table, Kind.INSERT, null));
                }
                Entry entry = entries.get(start + k);
                Lane.Change change = entry.change();
                missing.add(
                        entry.key(), change, s -> table.bindRow(s, change.row(), change.version()));
            }
        }
        if (missing != null) {
            missing.execute();
        }
    }

    private static Kind kindOf(Lane.Change change, boolean plainInserts) {
        return switch (change.kind()) {
            case DELETE -> Kind.DELETE;
            case INSERT -> plainInserts ? Kind.INSERT : Kind.UPDATE;
            case UPSERT, UPDATE -> Kind.UPDATE;
        };
    }

    /** The columns an UPDATE sets: the changed ones, or for a whole image every non-key column. */
    private BitSet columnsOf(Entry entry) {
        if (entry.change().kind() == Lane.Kind.UPDATE) {
            return entry.change().changed();
        }
        return wholeImages.computeIfAbsent(entry.table(), SourceOrderWrites::wholeImage);
    }

    private static BitSet wholeImage(TargetTable table) {
        BitSet columns = new BitSet();
        int n = table.schema().columnCount();
        columns.set(0, n);
        for (int k = 0; k < table.schema().keySize(); k++) {
            columns.clear(table.schema().keyIndex(k));
        }
        if (columns.isEmpty()) {
            columns.set(0, n); // only key columns: set them to themselves, the update still finds
        }
        return columns;
    }

    private PreparedStatement prepare(TargetTable table, Kind kind, BitSet columns)
            throws SQLException {
        return switch (kind) {
            case UPDATE -> updates.of(connection, table, columns);
            case INSERT -> cached(inserts, table, table.insertSql());
            case DELETE -> cached(deletes, table, table.deleteSql());
        };
    }

    private PreparedStatement cached(
            Map<TargetTable, PreparedStatement> cache, TargetTable table, String sql)
            throws SQLException {
        PreparedStatement statement = cache.get(table);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            cache.put(table, statement);
        }
        return statement;
    }
}
