package io.changegrid.gridkit.goldengate;

import java.util.List;
import java.util.Map;

/**
 * One operation as the JSON formatter writes it.
 *
 * @param table {@code SCHEMA.TABLE}
 * @param opType I, U, D or T
 * @param primaryKeys the key columns, in key order
 * @param before the before image, column to value in column order, or null; a value of {@link
 *     #MISSING} writes {@code COLUMN_isMissing: true} instead of the value
 * @param after the after image, or null
 */
public record TrailOperation(
        String table,
        char opType,
        List<String> primaryKeys,
        Map<String, Object> before,
        Map<String, Object> after) {

    /** A column left out of an image (not NULL: absent). */
    public static final Object MISSING =
            new Object() {
                @Override
                public String toString() {
                    return "MISSING";
                }
            };

    public static TrailOperation insert(String table, List<String> key, Map<String, Object> after) {
        return new TrailOperation(table, 'I', key, null, after);
    }

    public static TrailOperation update(
            String table, List<String> key, Map<String, Object> before, Map<String, Object> after) {
        return new TrailOperation(table, 'U', key, before, after);
    }

    public static TrailOperation delete(
            String table, List<String> key, Map<String, Object> before) {
        return new TrailOperation(table, 'D', key, before, null);
    }
}
