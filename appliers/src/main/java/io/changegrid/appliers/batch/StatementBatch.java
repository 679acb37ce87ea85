package io.changegrid.appliers.batch;

import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.appliers.typemap.ValueNotRepresentableException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One JDBC batch of one table's row changes, which knows the change behind each entry: a value
 * without a target form, or an entry the target refuses, is reported with the table, the row's key
 * and its SCN ({@link FailedRow}). Not thread-safe: one lane's committing thread uses it.
 */
final class StatementBatch {

    /** Binds one change's parameters. */
    @FunctionalInterface
    interface Binding {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private final TargetTable table;
    private final PreparedStatement statement;
    private final List<RowKey> keys = new ArrayList<>();
    private final List<Lane.Change> changes = new ArrayList<>();

    StatementBatch(TargetTable table, PreparedStatement statement) {
        this.table = table;
        this.statement = statement;
    }

    /**
     * Binds and adds one change.
     *
     * @throws RowRefusedException if a value has no form in its target column
     */
    void add(RowKey key, Lane.Change change, Binding binding) throws SQLException {
        try {
            binding.bind(statement);
        } catch (ValueNotRepresentableException e) {
            statement.clearBatch(); // a cached statement must not keep half a batch
            throw FailedRow.refused(table, key, change, e);
        }
        statement.addBatch();
        keys.add(key);
        changes.add(change);
    }

    int size() {
        return changes.size();
    }

    /** The change of the entry at {@code index}. */
    Lane.Change change(int index) {
        return changes.get(index);
    }

    /**
     * Runs the batch (nothing if empty).
     *
     * @return the update count of each entry
     * @throws SQLException naming the refused change where it can be told ({@link FailedRow})
     */
    int[] execute() throws SQLException {
        if (changes.isEmpty()) {
            return new int[0];
        }
        try {
            return statement.executeBatch();
        } catch (SQLException e) {
            throw FailedRow.of(table, keys, changes, e);
        }
    }
}
