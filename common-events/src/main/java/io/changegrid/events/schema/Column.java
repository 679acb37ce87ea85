package io.changegrid.events.schema;

import io.changegrid.events.value.ValueType;

/**
 * One column of a table schema.
 *
 * @param name the column name as the source spells it
 * @param type the source-independent type its values are carried as
 * @param sourceType the source's own declaration, e.g. {@code decimal(65,30) unsigned} or {@code
 *     enum('a','b')}, kept so appliers can create faithful target columns
 * @param nullable whether the column accepts NULL
 * @param width the declared width where the type needs it to render values (bits of a BIT column),
 *     otherwise 0
 */
public record Column(String name, ValueType type, String sourceType, boolean nullable, int width) {

    public Column {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("column name must not be empty");
        }
        if (type == null) {
            throw new IllegalArgumentException("column type must not be null: column=" + name);
        }
        if (sourceType == null) {
            sourceType = type.name().toLowerCase(java.util.Locale.ROOT);
        }
        if (width < 0) {
            throw new IllegalArgumentException(
                    "width must be >= 0: column=" + name + ", width=" + width);
        }
    }

    /** A nullable column of the given type, with the type's name as its source type. */
    public static Column of(String name, ValueType type) {
        return new Column(name, type, null, true, 0);
    }
}
