package io.changegrid.policy.config;

import io.changegrid.policy.partition.Partitioner;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one partitioner: {@code byTable: {partitions: n}}, {@code byKeyHash: {partitions: n}},
 * {@code byColumn: {column: c, partitions: n, values: {v: p}}} or {@code byRange: {column: c,
 * bounds: [b1, b2]}}.
 */
final class PartitionReader {

    private PartitionReader() {}

    static Partitioner read(String path, Object value, Problems problems) {
        Map<String, Object> map =
                problems.map(path, value, Set.of("byTable", "byKeyHash", "byColumn", "byRange"));
        if (map.size() != 1) {
            problems.add(
                    path, "expected exactly one of byTable, byKeyHash, byColumn, byRange", value);
            return null;
        }
        String kind = map.keySet().iterator().next();
        String at = path + "." + kind;
        Map<String, Object> spec =
                problems.map(at, map.get(kind), Set.of("partitions", "column", "values", "bounds"));
        int before = problems.count();
        try {
            switch (kind) {
                case "byTable":
                    return new Partitioner.ByTable(partitions(at, spec, problems));
                case "byKeyHash":
                    return new Partitioner.ByKeyHash(partitions(at, spec, problems));
                case "byColumn":
                    Map<String, Integer> values = new LinkedHashMap<>();
                    problems.map(at + ".values", spec.get("values"), null)
                            .forEach(
                                    (k, v) ->
                                            values.put(
                                                    k, problems.integer(at + ".values." + k, v)));
                    return new Partitioner.ByColumn(
                            column(at, spec, problems), partitions(at, spec, problems), values);
                default:
                    List<Comparable<?>> bounds = new ArrayList<>();
                    for (Object bound : problems.list(at + ".bounds", spec.get("bounds"))) {
                        bounds.add(
                                bound instanceof Number
                                        ? new BigDecimal(bound.toString())
                                        : String.valueOf(bound));
                    }
                    return new Partitioner.ByRange(column(at, spec, problems), bounds);
            }
        } catch (IllegalArgumentException e) {
            if (problems.count() == before) {
                problems.add(at + ": " + e.getMessage());
            }
            return null;
        }
    }

    private static int partitions(String at, Map<String, Object> spec, Problems problems) {
        if (spec.get("partitions") == null) {
            problems.add(at + ".partitions", "missing", null);
            return 1;
        }
        return problems.integer(at + ".partitions", spec.get("partitions"));
    }

    private static String column(String at, Map<String, Object> spec, Problems problems) {
        if (spec.get("column") == null) {
            problems.add(at + ".column", "missing", null);
            return "";
        }
        return problems.string(at + ".column", spec.get("column"));
    }
}
