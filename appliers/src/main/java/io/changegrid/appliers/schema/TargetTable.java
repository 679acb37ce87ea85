package io.changegrid.appliers.schema;

import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.conflict.RowVersion;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;

/**
 * One source table version as the target writes it: the target table's name, the mapped columns,
 * and the blind upsert and delete by key. Immutable; binding is thread-safe.
 */
public final class TargetTable {

    private final TableSchema schema;
    private final String name;
    private final List<TargetColumn> columns;
    private final List<TargetColumn> key;
    private final String upsertSql;
    private final String insertSql;
    private final String deleteSql;
    private final Function<List<TargetColumn>, String> updateSql;
    private final boolean sourceOrder;

    /**
     * @param schema the source table version
     * @param name the target table, qualified and quoted
     * @param columns the source columns' target forms, in source order
     * @param upsertSql the upsert of a whole row, parameters in column order
     * @param insertSql the plain insert of a whole row, parameters in column order
     * @param deleteSql the delete by key, parameters in key order
     * @param updateSql the update of the given columns by key: parameters the columns, then the key
     */
    TargetTable(
            TableSchema schema,
            String name,
            List<TargetColumn> columns,
            String upsertSql,
            String insertSql,
            String deleteSql,
            Function<List<TargetColumn>, String> updateSql) {
        this(schema, name, columns, upsertSql, insertSql, deleteSql, updateSql, false);
    }

    private TargetTable(
            TableSchema schema,
            String name,
            List<TargetColumn> columns,
            String upsertSql,
            String insertSql,
            String deleteSql,
            Function<List<TargetColumn>, String> updateSql,
            boolean sourceOrder) {
        this.schema = schema;
        this.name = name;
        this.columns = List.copyOf(columns);
        this.key = keyColumns(schema, columns);
        this.upsertSql = upsertSql;
        this.insertSql = insertSql;
        this.deleteSql = deleteSql;
        this.updateSql = updateSql;
        this.sourceOrder = sourceOrder;
    }

    /**
     * This table, its rows to be written one by one in source commit order and never by an upsert
     * ({@link io.changegrid.appliers.batch.Lane}): for a target table with unique keys besides its
     * primary key or in foreign keys.
     */
    TargetTable inSourceOrder() {
        return new TargetTable(
                schema, name, columns, upsertSql, insertSql, deleteSql, updateSql, true);
    }

    /** Whether rows are written one by one in source commit order ({@link #inSourceOrder}). */
    public boolean sourceOrder() {
        return sourceOrder;
    }

    static List<TargetColumn> keyColumns(TableSchema schema, List<TargetColumn> columns) {
        List<TargetColumn> key = new ArrayList<>();
        for (int k = 0; k < schema.keySize(); k++) {
            key.add(columns.get(schema.keyIndex(k)));
        }
        return key;
    }

    public TableSchema schema() {
        return schema;
    }

    /** The target table, qualified and quoted. */
    public String name() {
        return name;
    }

    /** The target columns: the source's, then the version columns of a versioned table. */
    public List<TargetColumn> columns() {
        return columns;
    }

    /** The key columns in key order. */
    public List<TargetColumn> key() {
        return key;
    }

    /** Whether the table keeps the version of the change that wrote each row. */
    public boolean versioned() {
        return columns.size() > schema.columnCount();
    }

    public String upsertSql() {
        return upsertSql;
    }

    /** A plain INSERT of a whole row: fails on an existing key. */
    public String insertSql() {
        return insertSql;
    }

    public String deleteSql() {
        return deleteSql;
    }

    /** The key values of a row image, in key order. */
    public Object[] keyOf(Object[] row) {
        Object[] values = new Object[schema.keySize()];
        for (int k = 0; k < values.length; k++) {
            values[k] = row[schema.keyIndex(k)];
        }
        return values;
    }

    /**
     * Binds a whole row to the upsert's or insert's parameters.
     *
     * @param version the writing change's version, bound to the version columns of a versioned
     *     table; ignored otherwise
     */
    public void bindRow(PreparedStatement statement, Object[] row, RowVersion version)
            throws SQLException {
        int n = schema.columnCount();
        for (int i = 0; i < n; i++) {
            bind(statement, i + 1, columns.get(i), row[i]);
        }
        if (versioned()) {
            statement.setLong(n + 1, version.sourceId());
            statement.setLong(n + 2, version.scn());
            statement.setLong(n + 3, version.commitTimeMicros());
        }
    }

    /** The update of the {@code changed} source columns by key ({@link #bindUpdate}). */
    public String updateSql(BitSet changed) {
        return updateSql.apply(columnsOf(changed));
    }

    /** The source columns set in {@code changed}, in column order. */
    public List<TargetColumn> columnsOf(BitSet changed) {
        List<TargetColumn> set = new ArrayList<>(changed.cardinality());
        for (int i = changed.nextSetBit(0); i >= 0; i = changed.nextSetBit(i + 1)) {
            set.add(columns.get(i));
        }
        return set;
    }

    /**
     * Binds an update of some columns ({@link io.changegrid.appliers.dialect.Dialect#update}): the
     * {@code changed} columns' values from {@code row}, then the row's key.
     */
    public void bindUpdate(PreparedStatement statement, Object[] row, BitSet changed)
            throws SQLException {
        int p = 1;
        for (int i = changed.nextSetBit(0); i >= 0; i = changed.nextSetBit(i + 1)) {
            bind(statement, p++, columns.get(i), row[i]);
        }
        for (int k = 0; k < key.size(); k++) {
            bind(statement, p++, key.get(k), row[schema.keyIndex(k)]);
        }
    }

    /** Binds key values to the delete's parameters. */
    public void bindKey(PreparedStatement statement, Object[] keyValues) throws SQLException {
        bindKeyAt(statement, 1, keyValues);
    }

    /** Binds key values to consecutive parameters starting at {@code first}. */
    public void bindKeyAt(PreparedStatement statement, int first, Object[] keyValues)
            throws SQLException {
        for (int k = 0; k < key.size(); k++) {
            bind(statement, first + k, key.get(k), keyValues[k]);
        }
    }

    private static void bind(PreparedStatement statement, int index, TargetColumn column, Object v)
            throws SQLException {
        if (v == null) {
            statement.setNull(index, column.sqlType());
        } else {
            column.binder().bind(statement, index, v);
        }
    }

    @Override
    public String toString() {
        return name + " (source " + schema.qualifiedName() + " v" + schema.version() + ")";
    }
}
