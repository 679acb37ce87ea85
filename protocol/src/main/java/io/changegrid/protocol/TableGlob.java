package io.changegrid.protocol;

/**
 * A {@code database.table} pattern where {@code *} matches any run of characters (also none), e.g.
 * {@code shop.*}, {@code *.orders} or {@code shop.order_*}: the one matcher of table patterns for
 * every module, so that a relay's capture filter, its policies, a consumer's subscription and a
 * group's choice of relays agree on what a pattern matches.
 *
 * <p><b>Case rule.</b> Names match case-sensitively, character for character, as MySQL compares
 * table and database names with {@code lower_case_table_names=0} (the default on Linux). With
 * {@code lower_case_table_names=1} the server stores and logs every name in lower case, so patterns
 * must be written in lower case to match; with {@code 2} it logs names as they were created.
 * Patterns are compared with each other ({@link #covers}, {@link #overlaps}) by the same rule.
 *
 * <p>Matching is greedy with backtracking to the last star only: linear for patterns like ours,
 * unlike a regular expression built from untrusted text. Immutable and thread-safe.
 *
 * @param text the pattern as written
 * @param database the part before the dot
 * @param table the part after the dot
 */
public record TableGlob(String text, String database, String table) {

    /**
     * Parses a pattern.
     *
     * @throws IllegalArgumentException if the text is not {@code database.table} with both parts
     *     non-empty
     */
    public static TableGlob parse(String text) {
        int dot = text == null ? -1 : text.indexOf('.');
        if (dot <= 0 || dot == text.length() - 1 || text.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("expected a database.table pattern: value=" + text);
        }
        return new TableGlob(text, text.substring(0, dot), text.substring(dot + 1));
    }

    /** Whether the table {@code databaseName.tableName} matches this pattern. */
    public boolean matches(String databaseName, String tableName) {
        return globMatches(database, databaseName) && globMatches(table, tableName);
    }

    /**
     * Whether every name {@code candidate} matches is one {@code pattern} matches too; both are
     * patterns, compared as whole texts.
     */
    public static boolean covers(String pattern, String candidate) {
        // The candidate's own * is taken as a character that only a * of the pattern can match,
        // so whatever it stands for stays within that * of the pattern.
        return globMatches(pattern, candidate);
    }

    /** Whether some name matches both patterns, compared as whole texts. */
    public static boolean overlaps(String a, String b) {
        int n = a.length();
        int m = b.length();
        // common[i][j]: some string matches both a[i..] and b[j..].
        boolean[][] common = new boolean[n + 1][m + 1];
        common[n][m] = true;
        for (int i = n; i >= 0; i--) {
            for (int j = m; j >= 0; j--) {
                if (i == n && j == m) {
                    continue;
                }
                boolean starA = i < n && a.charAt(i) == '*';
                boolean starB = j < m && b.charAt(j) == '*';
                if (starA || starB) {
                    // A * matches nothing more (move past it) or one more character, which the
                    // other pattern's next character (or its own *) must match too.
                    common[i][j] =
                            (starA && (common[i + 1][j] || (j < m && common[i][j + 1])))
                                    || (starB && (common[i][j + 1] || (i < n && common[i + 1][j])));
                } else {
                    common[i][j] =
                            i < n && j < m && a.charAt(i) == b.charAt(j) && common[i + 1][j + 1];
                }
            }
        }
        return common[0][0];
    }

    /** Whether {@code name} matches {@code glob}, whose {@code *} matches any run of characters. */
    private static boolean globMatches(String glob, String name) {
        int p = 0;
        int n = 0;
        int star = -1;
        int starMatch = 0;
        while (n < name.length()) {
            if (p < glob.length() && glob.charAt(p) == '*') {
                star = p++;
                starMatch = n;
            } else if (p < glob.length() && glob.charAt(p) == name.charAt(n)) {
                p++;
                n++;
            } else if (star >= 0) {
                p = star + 1;
                n = ++starMatch;
            } else {
                return false;
            }
        }
        while (p < glob.length() && glob.charAt(p) == '*') {
            p++;
        }
        return p == glob.length();
    }

    @Override
    public String toString() {
        return text;
    }
}
