package io.changegrid.fetchers.goldengate;

import io.changegrid.events.schema.Column;
import java.util.List;

/**
 * A captured table's columns as configured or as GoldenGate's schema file gives them, before the
 * registry numbers it.
 *
 * @param database the schema (owner), or {@code CATALOG.SCHEMA} for a three-part name
 * @param table the table name
 * @param columns in source order
 * @param key key columns if declared; the records' {@code primary_keys} decide in the end
 * @param origin where the definition came from, for messages
 */
record TableDefinition(
        String database, String table, List<Column> columns, List<String> key, String origin) {

    String qualifiedName() {
        return database + "." + table;
    }

    /** Splits {@code SCHEMA.TABLE} (or {@code CATALOG.SCHEMA.TABLE}) at its last dot. */
    static String[] splitName(String qualified) {
        int dot = qualified.lastIndexOf('.');
        if (dot <= 0 || dot == qualified.length() - 1) {
            throw new IllegalArgumentException("table name is not SCHEMA.TABLE: name=" + qualified);
        }
        return new String[] {qualified.substring(0, dot), qualified.substring(dot + 1)};
    }
}
