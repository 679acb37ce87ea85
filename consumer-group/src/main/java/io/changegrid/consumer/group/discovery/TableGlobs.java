package io.changegrid.consumer.group.discovery;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Comparisons of {@code database.table} patterns where {@code *} matches any run of characters,
 * case-insensitive, as relays and subscriptions write them. Stateless.
 */
final class TableGlobs {

    private TableGlobs() {}

    /** Whether every name {@code candidate} matches is one {@code pattern} matches too. */
    static boolean covers(String pattern, String candidate) {
        // The candidate's own * is taken as a character that only a * of the pattern can match,
        // so whatever it stands for stays within that * of the pattern.
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (regex.length() > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL)
                .matcher(candidate)
                .matches();
    }

    /** Whether some name matches both patterns. */
    static boolean overlaps(String first, String second) {
        String a = first.toLowerCase(Locale.ROOT);
        String b = second.toLowerCase(Locale.ROOT);
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
}
