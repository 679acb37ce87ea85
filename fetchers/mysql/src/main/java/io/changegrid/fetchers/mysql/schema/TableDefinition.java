package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A table as the server defines it, without a registry id or version: its columns, its primary key
 * and its default character set (which character columns added later without one inherit).
 *
 * @param database the database
 * @param table the table name
 * @param columns the columns in order, as {@link MySqlColumnTypes} makes them
 * @param keyColumns the primary key's columns in key order; empty without a primary key
 * @param charset the table's default character set
 * @throws IllegalArgumentException for no columns, two columns whose names differ only in case, or
 *     a key column not in the table
 */
public record TableDefinition(
        String database,
        String table,
        List<Column> columns,
        List<String> keyColumns,
        String charset) {

    public TableDefinition {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(charset, "charset");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        String where = "table=" + database + "." + table;
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column: " + where);
        }
        Set<String> names = new HashSet<>();
        for (Column column : columns) {
            // MySQL compares column names ignoring case: `a` and `A` cannot both exist.
            if (!names.add(column.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(
                        "duplicate column: " + where + ", column=" + column.name());
            }
        }
        for (String key : keyColumns) {
            if (columns.stream().noneMatch(column -> column.name().equals(key))) {
                throw new IllegalArgumentException(
                        "key column not in table: " + where + ", column=" + key);
            }
        }
    }

    /** The table's qualified name. */
    public TableName name() {
        return new TableName(database, table);
    }

    /** The same definition under another name. */
    public TableDefinition renamed(TableName name) {
        return new TableDefinition(name.database(), name.table(), columns, keyColumns, charset);
    }
}
