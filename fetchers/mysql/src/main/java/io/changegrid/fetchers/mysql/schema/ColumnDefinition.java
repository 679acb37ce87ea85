package io.changegrid.fetchers.mysql.schema;

/**
 * A column definition of a CREATE or ALTER TABLE statement: what decides the column's schema, the
 * rest (defaults, comments, generation expressions) already skipped.
 *
 * @param name the column name
 * @param type the declared type
 * @param nullable {@code TRUE} for NULL, {@code FALSE} for NOT NULL, null when the definition says
 *     neither
 * @param autoIncrement AUTO_INCREMENT (or SERIAL), which makes the column NOT NULL
 * @param primaryKey the definition carries {@code PRIMARY KEY} (or just {@code KEY})
 */
record ColumnDefinition(
        String name, TypeSpec type, Boolean nullable, boolean autoIncrement, boolean primaryKey) {}
