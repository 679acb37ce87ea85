package io.changegrid.appliers.batch;

import io.changegrid.appliers.schema.TargetTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a lane's coalesced changes of one table, each key once, so in no order among themselves:
 * the deletes as one JDBC batch, then the in-place updates (one batch per set of changed columns),
 * then the plain inserts and the upserts, the rows an update did not find among them. Keeps the
 * lane's prepared statements per table. Not thread-safe: one lane's committing thread uses it.
 */
final class CoalescedWrites {

    private final Connection connection;
    private final Map<TargetTable, PreparedStatement> upserts = new HashMap<>();
    private final Map<TargetTable, PreparedStatement> inserts = new HashMap<>();
    private final Map<TargetTable, PreparedStatement> deletes = new HashMap<>();
    private final PreparedUpdates updates = new PreparedUpdates();

    CoalescedWrites(Connection connection) {
        this.connection = connection;
    }

    /**
     * Writes one table's changes in the open transaction.
     *
     * @param plainInserts whether rows the source inserted are written by a plain INSERT
     * @return the rows written
     */
    int write(TargetTable table, Map<RowKey, Lane.Change> rows, boolean plainInserts)
            throws SQLException {
        StatementBatch delete = null;
        StatementBatch upsert = null;
        StatementBatch insert = null;
        int updated = 0;
        for (Map.Entry<RowKey, Lane.Change> row : rows.entrySet()) {
            if (row.getValue().kind() == Lane.Kind.DELETE) {
                if (delete == null) {
                    delete = batch(deletes, table, table.deleteSql());
                }
                delete.add(
                        row.getKey(), row.getValue(), s -> table.bindKey(s, row.getKey().values()));
            }
        }
        if (delete != null) {
            delete.execute();
        }
        Map<RowKey, Lane.Change> missing = updateInPlace(table, rows);
        for (Map.Entry<RowKey, Lane.Change> row : rows.entrySet()) {
            Lane.Change change = row.getValue();
            if (change.kind() == Lane.Kind.UPDATE) {
                updated++; // written above; the missing ones below as upserts
            } else if (change.kind() == Lane.Kind.INSERT && plainInserts) {
                if (insert == null) {
                    insert = batch(inserts, table, table.insertSql());
                }
                insert.add(
                        row.getKey(),
                        change,
                        s -> table.bindRow(s, change.row(), change.version()));
            } else if (change.kind() != Lane.Kind.DELETE) {
                if (upsert == null) {
                    upsert = batch(upserts, table, table.upsertSql());
                }
                upsert.add(
                        row.getKey(),
                        change,
                        s -> table.bindRow(s, change.row(), change.version()));
            }
        }
        for (Map.Entry<RowKey, Lane.Change> row : missing.entrySet()) {
            if (upsert == null) {
                upsert = batch(upserts, table, table.upsertSql());
            }
            Lane.Change change = row.getValue();
            upsert.add(row.getKey(), change, s -> table.bindRow(s, change.row(), change.version()));
        }
        int deleted = delete == null ? 0 : delete.size();
        int inserted = insert == null ? 0 : insert.size();
        int upserted = upsert == null ? 0 : upsert.size() - missing.size();
        if (insert != null) {
            insert.execute();
        }
        if (upsert != null) {
            upsert.execute();
        }
        return deleted + upserted + inserted + updated;
    }

    /**
     * Runs the pending in-place updates of {@code table}, one JDBC batch per set of changed
     * columns, and returns the changes whose row was not there (update count 0): they are written
     * as upserts of their whole image, still without reading anything.
     */
    private Map<RowKey, Lane.Change> updateInPlace(TargetTable table, Map<RowKey, Lane.Change> rows)
            throws SQLException {
        Map<BitSet, Map<RowKey, Lane.Change>> byColumns = new HashMap<>();
        for (Map.Entry<RowKey, Lane.Change> row : rows.entrySet()) {
            Lane.Change change = row.getValue();
            if (change.kind() == Lane.Kind.UPDATE) {
                byColumns
                        .computeIfAbsent(change.changed(), c -> new LinkedHashMap<>())
                        .put(row.getKey(), change);
            }
        }
        Map<RowKey, Lane.Change> missing = new LinkedHashMap<>();
        for (Map.Entry<BitSet, Map<RowKey, Lane.Change>> group : byColumns.entrySet()) {
            StatementBatch update =
                    new StatementBatch(table, updates.of(connection, table, group.getKey()));
            List<RowKey> keys = new ArrayList<>(group.getValue().keySet());
            for (RowKey key : keys) {
                Lane.Change change = group.getValue().get(key);
                update.add(key, change, s -> table.bindUpdate(s, change.row(), change.changed()));
            }
            int[] counts = update.execute();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == 0) {
                    missing.put(keys.get(i), update.change(i));
                }
            }
        }
        return missing;
    }

    private StatementBatch batch(
            Map<TargetTable, PreparedStatement> cache, TargetTable table, String sql)
            throws SQLException {
        return new StatementBatch(table, statement(cache, table, sql));
    }

    private PreparedStatement statement(
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
