package io.changegrid.policy.select;

import io.changegrid.protocol.TableGlob;

/**
 * A policy's {@code database.table} pattern where {@code *} matches any run of characters, e.g.
 * {@code shop.*} or {@code *.audit_*}: matched by the one table pattern matcher of the grid, {@link
 * TableGlob}, whose Javadoc and docs/policies.md state the case rule (names compare
 * case-sensitively, as MySQL with {@code lower_case_table_names=0}). Immutable and thread-safe.
 *
 * @param text the pattern as written
 * @param glob the matcher
 */
public record TablePattern(String text, TableGlob glob) {

    /**
     * Parses a pattern.
     *
     * @throws IllegalArgumentException if the text is not {@code database.table}
     */
    public static TablePattern parse(String text) {
        return new TablePattern(text, TableGlob.parse(text));
    }

    /** True when the table {@code database.table} matches this pattern. */
    public boolean matches(String databaseName, String tableName) {
        return glob.matches(databaseName, tableName);
    }

    @Override
    public String toString() {
        return text;
    }
}
