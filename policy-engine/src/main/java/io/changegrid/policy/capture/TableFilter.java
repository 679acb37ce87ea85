package io.changegrid.policy.capture;

import io.changegrid.protocol.TableGlob;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which tables a relay captures: include and exclude patterns of the form {@code database.table},
 * where {@code *} matches any run of characters (also none), e.g. {@code shop.*}, {@code *.orders}
 * or {@code shop.order_*}.
 *
 * <p>An empty include list includes every table; an exclude always wins over an include; the system
 * databases ({@code mysql}, {@code information_schema}, {@code performance_schema}, {@code sys})
 * are never captured, whatever the patterns say. Patterns are {@link TableGlob}s: names match
 * case-sensitively, as MySQL compares table names on Linux ({@code lower_case_table_names=0}).
 *
 * <p>Immutable and thread-safe.
 */
public final class TableFilter {

    /** Databases that hold the server's own tables: their rows are never application data. */
    private static final Set<String> SYSTEM_DATABASES =
            Set.of("mysql", "information_schema", "performance_schema", "sys");

    private static final TableFilter ALL = new TableFilter(List.of(), List.of());

    private final List<TableGlob> includes;
    private final List<TableGlob> excludes;

    private TableFilter(List<TableGlob> includes, List<TableGlob> excludes) {
        this.includes = includes;
        this.excludes = excludes;
    }

    /** A filter that captures every table outside the system databases. */
    public static TableFilter all() {
        return ALL;
    }

    /**
     * A filter from include and exclude patterns.
     *
     * @throws IllegalArgumentException naming the first pattern that is not {@code database.table}
     *     with both parts non-empty
     */
    public static TableFilter of(List<String> includes, List<String> excludes) {
        return new TableFilter(compile(includes, "include"), compile(excludes, "exclude"));
    }

    /** Whether rows of {@code database.table} are captured. */
    public boolean matches(String database, String table) {
        if (isSystemDatabase(database)) {
            return false;
        }
        for (TableGlob exclude : excludes) {
            if (exclude.matches(database, table)) {
                return false;
            }
        }
        if (includes.isEmpty()) {
            return true;
        }
        for (TableGlob include : includes) {
            if (include.matches(database, table)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code database} is one of the server's own; MySQL compares these names ignoring
     * case.
     */
    public static boolean isSystemDatabase(String database) {
        return SYSTEM_DATABASES.contains(database.toLowerCase(Locale.ROOT));
    }

    /** The include patterns as given. */
    public List<String> includes() {
        return includes.stream().map(TableGlob::text).toList();
    }

    /** The exclude patterns as given. */
    public List<String> excludes() {
        return excludes.stream().map(TableGlob::text).toList();
    }

    @Override
    public String toString() {
        return "TableFilter[includes=" + includes() + ", excludes=" + excludes() + "]";
    }

    private static List<TableGlob> compile(List<String> patterns, String kind) {
        if (patterns == null) {
            throw new IllegalArgumentException("table patterns must not be null: kind=" + kind);
        }
        return patterns.stream().map(text -> compile(text, kind)).toList();
    }

    private static TableGlob compile(String text, String kind) {
        try {
            return TableGlob.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "bad table pattern, expected database.table: kind="
                            + kind
                            + ", pattern="
                            + text,
                    e);
        }
    }
}
