package io.changegrid.appliers.it;

import io.changegrid.fetchers.mysql.MariaDbTypeMatrix;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix.TypeCase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The steps of the all-types matrix ({@link MariaDbTypeMatrix}) as SQL for one source table: insert
 * a row per value, update every column on its own, change every key, delete every row. The values a
 * target refuses can be left out, so that table shows every other value exact; the refused ones are
 * tried on their own (see {@code TypeMatrixPipelineIT}).
 */
final class MatrixWorkload {

    /** A non-strict source session in UTC: the edge values (zero dates, bad labels) go in. */
    static final String SESSION = "SET SESSION sql_mode = '', SESSION time_zone = '+00:00'";

    private final String table;
    private final Map<TypeCase, List<String>> values = new LinkedHashMap<>();

    /**
     * @param table the source table, {@code db.table}
     * @param leftOut the values (SQL expressions) of a case to leave out
     */
    MatrixWorkload(String table, BiPredicate<TypeCase, String> leftOut) {
        this.table = table;
        for (TypeCase c : MariaDbTypeMatrix.CASES) {
            values.put(c, c.values().stream().filter(v -> !leftOut.test(c, v)).toList());
        }
    }

    String table() {
        return table;
    }

    /** The rows that give every case each of its values at least once. */
    int rows() {
        return values.values().stream().mapToInt(List::size).max().orElseThrow();
    }

    /** Value {@code i} of a case, cycling through its values. */
    String value(TypeCase c, int i) {
        List<String> list = values.get(c);
        return list.get(Math.floorMod(i, list.size()));
    }

    String[] inserts() {
        List<String> sql = new ArrayList<>(List.of(SESSION));
        for (int r = 0; r < rows(); r++) {
            StringBuilder row = new StringBuilder("INSERT INTO " + table + " VALUES (" + r);
            for (TypeCase c : MariaDbTypeMatrix.CASES) {
                row.append(", ").append(value(c, r));
            }
            sql.add(row.append(')').toString());
        }
        return sql.toArray(String[]::new);
    }

    /** Row {@code r} gets its case's next value: one statement a row, one column changed. */
    String[] update(TypeCase c) {
        List<String> sql = new ArrayList<>(List.of(SESSION));
        for (int r = 0; r < rows(); r++) {
            sql.add(
                    "UPDATE "
                            + table
                            + " SET `"
                            + c.name()
                            + "` = "
                            + value(c, r + 1)
                            + " WHERE id = "
                            + r);
        }
        return sql.toArray(String[]::new);
    }

    String[] keyChange() {
        return new String[] {SESSION, "UPDATE " + table + " SET id = id + 1000"};
    }

    String[] delete() {
        return new String[] {"DELETE FROM " + table};
    }
}
