package io.changegrid.fetchers.goldengate;

import io.changegrid.events.schema.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Table definitions written in the relay's configuration ({@code source.tables}), one entry a
 * table: {@code SCHEMA.TABLE(COLUMN TYPE [not null] [key], ...)}.
 */
final class ConfiguredTables {

    private ConfiguredTables() {}

    /**
     * Parses one entry.
     *
     * @throws IllegalArgumentException naming the entry and the problem
     */
    static TableDefinition parse(String entry) {
        int open = entry.indexOf('(');
        if (open < 0 || !entry.endsWith(")")) {
            throw new IllegalArgumentException(
                    "table entry is not SCHEMA.TABLE(COLUMN TYPE, ...): entry=" + entry);
        }
        String[] name = TableDefinition.splitName(entry.substring(0, open).trim());
        List<Column> columns = new ArrayList<>();
        List<String> key = new ArrayList<>();
        for (String part : splitTopLevel(entry.substring(open + 1, entry.length() - 1))) {
            String text = part.trim();
            int space = text.indexOf(' ');
            if (space < 0) {
                throw new IllegalArgumentException(
                        "column without a type: entry=" + entry + ", column=" + text);
            }
            String column = text.substring(0, space);
            String type = text.substring(space + 1).trim();
            boolean isKey = false;
            boolean nullable = true;
            String lower = type.toLowerCase(Locale.ROOT);
            if (lower.endsWith(" key")) {
                isKey = true;
                type = type.substring(0, type.length() - 4).trim();
                lower = type.toLowerCase(Locale.ROOT);
            }
            if (lower.endsWith(" not null")) {
                nullable = false;
                type = type.substring(0, type.length() - 9).trim();
            }
            try {
                columns.add(ColumnTypes.column(column, type, nullable && !isKey));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + ", entry=" + entry, e);
            }
            if (isKey) {
                key.add(column);
            }
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("table without columns: entry=" + entry);
        }
        return new TableDefinition(name[0], name[1], columns, key, "source.tables");
    }

    /** Splits at commas outside parentheses: {@code NUMBER(10,2)} stays one type. */
    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (!text.substring(start).isBlank()) {
            parts.add(text.substring(start));
        }
        return parts;
    }
}
