package io.changegrid.events.schema;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One version of one table's schema: its columns in source order and its key. Immutable.
 *
 * <p>A table keeps its {@link #tableId()} across versions, renames included; every change of name,
 * columns or key makes a new {@link #version()}. Frames name both, so any frame can be decoded with
 * the schema that was current when it was written.
 */
public final class TableSchema {

    private final int tableId;
    private final int version;
    private final String database;
    private final String table;
    private final List<Column> columns;
    private final List<String> keyColumns;
    private final int[] keyIndexes;
    private final Map<String, Integer> indexByName;

    /**
     * @param tableId the registry's id of this table, > 0
     * @param version this schema's version, > 0
     * @param database the database (MySQL), schema (Oracle, PostgreSQL) or other namespace
     * @param table the table name
     * @param columns the columns in source order, at least one
     * @param keyColumns the names of the primary key columns in key order; empty for a table
     *     without a primary key
     * @throws IllegalArgumentException naming the problem
     */
    public TableSchema(
            int tableId,
            int version,
            String database,
            String table,
            List<Column> columns,
            List<String> keyColumns) {
        String where = "table=" + database + "." + table;
        if (tableId <= 0 || version <= 0) {
            throw new IllegalArgumentException(
                    "table id and version must be > 0: "
                            + where
                            + ", tableId="
                            + tableId
                            + ", version="
                            + version);
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column: " + where);
        }
        this.tableId = tableId;
        this.version = version;
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
        this.columns = List.copyOf(columns);
        this.keyColumns = List.copyOf(keyColumns);
        this.indexByName = new HashMap<>();
        for (int i = 0; i < this.columns.size(); i++) {
            if (indexByName.put(this.columns.get(i).name(), i) != null) {
                throw new IllegalArgumentException(
                        "duplicate column: " + where + ", column=" + this.columns.get(i).name());
            }
        }
        this.keyIndexes = new int[this.keyColumns.size()];
        for (int k = 0; k < keyIndexes.length; k++) {
            Integer index = indexByName.get(this.keyColumns.get(k));
            if (index == null) {
                throw new IllegalArgumentException(
                        "key column not in table: " + where + ", column=" + this.keyColumns.get(k));
            }
            keyIndexes[k] = index;
        }
    }

    public int tableId() {
        return tableId;
    }

    public int version() {
        return version;
    }

    public String database() {
        return database;
    }

    public String table() {
        return table;
    }

    /** {@code database.table}. */
    public String qualifiedName() {
        return database + "." + table;
    }

    public List<Column> columns() {
        return columns;
    }

    public int columnCount() {
        return columns.size();
    }

    public Column column(int index) {
        return columns.get(index);
    }

    /** The index of the named column, or -1 if the table has no such column. */
    public int indexOf(String columnName) {
        Integer index = indexByName.get(columnName);
        return index == null ? -1 : index;
    }

    public List<String> keyColumns() {
        return keyColumns;
    }

    /** True when the table has a primary key. */
    public boolean hasKey() {
        return keyIndexes.length > 0;
    }

    /** The number of key columns. */
    public int keySize() {
        return keyIndexes.length;
    }

    /** The column index of the {@code k}-th key column. */
    public int keyIndex(int k) {
        return keyIndexes[k];
    }

    /** Same table, columns and key as {@code other}, ignoring id and version. */
    public boolean sameDefinitionAs(TableSchema other) {
        return database.equals(other.database)
                && table.equals(other.table)
                && columns.equals(other.columns)
                && keyColumns.equals(other.keyColumns);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableSchema that
                && tableId == that.tableId
                && version == that.version
                && sameDefinitionAs(that);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * tableId + version) + columns.hashCode();
    }

    @Override
    public String toString() {
        return "TableSchema["
                + qualifiedName()
                + " id="
                + tableId
                + " v"
                + version
                + " columns="
                + columns
                + " key="
                + keyColumns
                + " keyIndexes="
                + Arrays.toString(keyIndexes)
                + "]";
    }
}
