package io.changegrid.policy.transform;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a policy does to the tables it selects, as parsed, independent of any schema. Renames and
 * masks are keyed by source column name; added columns keep their definition order. Immutable.
 *
 * @param database the new database name, or {@code null} to keep it
 * @param table the new table name, or {@code null} to keep it
 * @param includeColumns the only columns kept, or empty to keep all
 * @param excludeColumns columns removed (after {@code includeColumns})
 * @param drop columns removed, like {@code excludeColumns}
 * @param rename source column name to output name
 * @param mask source column name to masking
 * @param add output column name to the source of its value, appended after the kept columns
 */
public record TransformSpec(
        String database,
        String table,
        Set<String> includeColumns,
        Set<String> excludeColumns,
        Set<String> drop,
        Map<String, String> rename,
        Map<String, Masking> mask,
        Map<String, ColumnSource> add) {

    /** Changes nothing. */
    public static final TransformSpec IDENTITY =
            new TransformSpec(
                    null, null, Set.of(), Set.of(), Set.of(), Map.of(), Map.of(), Map.of());

    public TransformSpec {
        includeColumns = Set.copyOf(includeColumns);
        excludeColumns = Set.copyOf(excludeColumns);
        drop = Set.copyOf(drop);
        rename = Map.copyOf(rename);
        mask = Map.copyOf(mask);
        add = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(add));
    }

    /** Every source column name the spec refers to, with the YAML key that names it. */
    public List<Map.Entry<String, String>> referencedColumns() {
        List<Map.Entry<String, String>> refs = new java.util.ArrayList<>();
        includeColumns.forEach(c -> refs.add(Map.entry("columns.include", c)));
        excludeColumns.forEach(c -> refs.add(Map.entry("columns.exclude", c)));
        drop.forEach(c -> refs.add(Map.entry("transform.drop", c)));
        rename.keySet().forEach(c -> refs.add(Map.entry("transform.rename." + c, c)));
        mask.keySet().forEach(c -> refs.add(Map.entry("transform.mask." + c, c)));
        return refs;
    }
}
