package io.changegrid.appliers.typemap;

import java.util.Locale;

/**
 * A column's source type taken apart as far as a target needs it: {@code decimal(10,2) unsigned} is
 * base {@code decimal}, parameters {@code 10,2}, unsigned. Lenient: a type of another source still
 * yields its leading word as the base.
 *
 * @param base the type's name in lower case
 * @param params what stands between the first parentheses, or {@code null}
 * @param unsigned whether the word {@code unsigned} follows
 * @param text the whole source type as given
 */
record SourceType(String base, String params, boolean unsigned, String text) {

    private static final String CHARACTER_SET = " character set ";

    static SourceType parse(String text) {
        String lower = text.toLowerCase(Locale.ROOT).trim();
        int i = 0;
        while (i < lower.length()
                && (Character.isLetterOrDigit(lower.charAt(i)) || lower.charAt(i) == '_')) {
            i++;
        }
        String base = lower.substring(0, i);
        String params = null;
        int open = lower.indexOf('(', i);
        if (open == i) {
            int close = text.lastIndexOf(')');
            params = close > open ? text.substring(open + 1, close).trim() : null;
        }
        String rest =
                params == null ? lower.substring(i) : lower.substring(lower.lastIndexOf(')') + 1);
        return new SourceType(base, params, rest.contains("unsigned"), text);
    }

    /**
     * The character set a character column's source type names after {@code character set} (MySQL
     * and MariaDB sources, e.g. {@code varchar(20) character set cp1251}), or {@code null}.
     */
    String charset() {
        String lower = text.toLowerCase(Locale.ROOT);
        int at = lower.lastIndexOf(CHARACTER_SET);
        if (at < 0) {
            return null;
        }
        String rest = lower.substring(at + CHARACTER_SET.length()).trim();
        int end = rest.indexOf(' ');
        return end < 0 ? rest : rest.substring(0, end);
    }

    /** The first numeric parameter (length, precision), or {@code fallback}. */
    int length(int fallback) {
        if (params == null) {
            return fallback;
        }
        String first = params.split(",")[0].trim();
        try {
            return Integer.parseInt(first);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The second numeric parameter (scale), or {@code fallback}. */
    int scale(int fallback) {
        if (params == null || !params.contains(",")) {
            return fallback;
        }
        try {
            return Integer.parseInt(params.split(",")[1].trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
