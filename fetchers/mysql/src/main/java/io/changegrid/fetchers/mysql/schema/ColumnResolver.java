package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns parsed column definitions into {@link Column}s as the server stores them: the canonical
 * type (see {@link ColumnTypeRenderer}) and the nullability the server gives it, which is NOT NULL
 * for AUTO_INCREMENT columns, for TIMESTAMP columns when {@code explicit_defaults_for_timestamp} is
 * off, and for every primary key column.
 *
 * <p>Stateless.
 */
final class ColumnResolver {

    private ColumnResolver() {}

    /** The column a definition declares in a table whose default character set is given. */
    static Column column(ColumnDefinition definition, String tableCharset, ServerDialect dialect) {
        MySqlColumnType type = ColumnTypeRenderer.render(definition.type(), tableCharset, dialect);
        boolean nullable;
        if (definition.autoIncrement()) {
            nullable = false;
        } else if (definition.nullable() != null) {
            nullable = definition.nullable();
        } else {
            nullable =
                    !(type.base().equals("timestamp") && !dialect.explicitDefaultsForTimestamp());
        }
        return MySqlColumnTypes.column(definition.name(), type.sourceType(), null, nullable);
    }

    /** The same column under another name. */
    static Column renamed(Column column, String name) {
        return new Column(
                name, column.type(), column.sourceType(), column.nullable(), column.width());
    }

    /** The index of the column named {@code name}, compared as MySQL compares column names. */
    static int indexOf(List<Column> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The columns with every key column made NOT NULL, and the key's names spelled as the columns
     * are.
     *
     * @throws UnsupportedDdlException if a key column is not in the table
     */
    static TableDefinition withKey(
            TableName name, List<Column> columns, List<String> key, String charset) {
        List<Column> result = new ArrayList<>(columns);
        List<String> keyNames = new ArrayList<>();
        for (String keyColumn : key) {
            int index = indexOf(result, keyColumn);
            if (index < 0) {
                throw new UnsupportedDdlException(
                        "primary key column not in table: table=" + name + ", column=" + keyColumn,
                        List.of(name));
            }
            Column column = result.get(index);
            if (column.nullable()) {
                result.set(
                        index,
                        new Column(
                                column.name(),
                                column.type(),
                                column.sourceType(),
                                false,
                                column.width()));
            }
            keyNames.add(column.name());
        }
        return new TableDefinition(name.database(), name.table(), result, keyNames, charset);
    }
}
