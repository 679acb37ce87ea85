package io.changegrid.policy.capture;

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
 * are never captured, whatever the patterns say. Names match case-sensitively, as MySQL compares
 * table names on Linux ({@code lower_case_table_names=0}).
 *
 * <p>Immutable and thread-safe.
 */
public final class TableFilter {

    /** Databases that hold the server's own tables: their rows are never application data. */
    private static final Set<String> SYSTEM_DATABASES =
            Set.of("mysql", "information_schema", "performance_schema", "sys");

    private static final TableFilter ALL = new TableFilter(List.of(), List.of());

    private final List<Pattern> includes;
    private final List<Pattern> excludes;

    private TableFilter(List<Pattern> includes, List<Pattern> excludes) {
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
        for (Pattern exclude : excludes) {
            if (exclude.matches(database, table)) {
                return false;
            }
        }
        if (includes.isEmpty()) {
            return true;
        }
        for (Pattern include : includes) {
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
        return includes.stream().map(Pattern::text).toList();
    }

    /** The exclude patterns as given. */
    public List<String> excludes() {
        return excludes.stream().map(Pattern::text).toList();
    }

    @Override
    public String toString() {
        return "TableFilter[includes=" + includes() + ", excludes=" + excludes() + "]";
    }

    private static List<Pattern> compile(List<String> patterns, String kind) {
        if (patterns == null) {
            throw new IllegalArgumentException("table patterns must not be null: kind=" + kind);
        }
        return patterns.stream().map(text -> Pattern.compile(text, kind)).toList();
    }

    /** One compiled {@code database.table} pattern. */
    private record Pattern(String text, Glob database, Glob table) {

        static Pattern compile(String text, String kind) {
            int dot = text == null ? -1 : text.indexOf('.');
            if (dot <= 0 || dot == text.length() - 1 || text.indexOf('.', dot + 1) >= 0) {
                throw new IllegalArgumentException(
                        "bad table pattern, expected database.table: kind="
                                + kind
                                + ", pattern="
                                + text);
            }
            return new Pattern(
                    text, new Glob(text.substring(0, dot)), new Glob(text.substring(dot + 1)));
        }

        boolean matches(String databaseName, String tableName) {
            return database.matches(databaseName) && table.matches(tableName);
        }
    }

    /** A name pattern where {@code *} matches any run of characters. */
    private record Glob(String pattern) {

        /**
         * Greedy match with backtracking to the last star only: linear for patterns like ours,
         * unlike a regular expression built from untrusted text.
         */
        boolean matches(String name) {
            int p = 0;
            int n = 0;
            int star = -1;
            int starMatch = 0;
            while (n < name.length()) {
                if (p < pattern.length() && pattern.charAt(p) == '*') {
                    star = p++;
                    starMatch = n;
                } else if (p < pattern.length() && pattern.charAt(p) == name.charAt(n)) {
                    p++;
                    n++;
                } else if (star >= 0) {
                    p = star + 1;
                    n = ++starMatch;
                } else {
                    return false;
                }
            }
            while (p < pattern.length() && pattern.charAt(p) == '*') {
                p++;
            }
            return p == pattern.length();
        }
    }
}
