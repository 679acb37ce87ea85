package io.changegrid.fetchers.mysql.schema;

import java.util.Objects;

/**
 * A table's (or view's) qualified name. A record rather than a joined string because MySQL names
 * may contain dots.
 */
public record TableName(String database, String table) {

    public TableName {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}
