package io.changegrid.policy.select;

import java.util.regex.Pattern;

/**
 * A {@code database.table} pattern where {@code *} matches any run of characters, e.g. {@code
 * shop.*} or {@code *.audit_*}. Immutable and thread-safe.
 *
 * @param text the pattern as written
 */
public record TablePattern(String text, Pattern database, Pattern table) {

    /**
     * Parses a pattern.
     *
     * @throws IllegalArgumentException if the text is not {@code database.table}
     */
    public static TablePattern parse(String text) {
        int dot = text.indexOf('.');
        if (dot <= 0 || dot == text.length() - 1 || text.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("expected a database.table pattern: value=" + text);
        }
        return new TablePattern(text, glob(text.substring(0, dot)), glob(text.substring(dot + 1)));
    }

    /** True when the table {@code database.table} matches this pattern. */
    public boolean matches(String databaseName, String tableName) {
        return database.matcher(databaseName).matches() && table.matcher(tableName).matches();
    }

    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        String[] literals = glob.split("\\*", -1);
        for (int i = 0; i < literals.length; i++) {
            if (i > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(literals[i]));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    @Override
    public String toString() {
        return text;
    }
}
