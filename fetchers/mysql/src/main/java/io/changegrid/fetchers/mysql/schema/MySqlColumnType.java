package io.changegrid.fetchers.mysql.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A column type in its canonical form, taken apart: {@code COLUMN_TYPE} as information_schema shows
 * it ({@code int(10) unsigned}, {@code enum('a','b')}, {@code varchar(100)}) plus, for character
 * columns, the character set. Parsed from and rendered to {@link
 * io.changegrid.events.schema.Column#sourceType()}, e.g. {@code varchar(100) character set latin1}.
 *
 * @param base the type's name, lower case: {@code int}, {@code varchar}, {@code enum}, ...
 * @param params what stands between the parentheses ({@code 10,2} or {@code 'a','b'}), or null
 * @param unsigned whether {@code unsigned} follows
 * @param zerofill whether {@code zerofill} follows
 * @param compressed whether the column is a MariaDB compressed column, which information_schema
 *     shows as {@code /*M!100301 COMPRESSED*}{@code /} and the canonical form as {@code compressed}
 * @param charset the character set of a character column, else null
 */
record MySqlColumnType(
        String base,
        String params,
        boolean unsigned,
        boolean zerofill,
        boolean compressed,
        String charset) {

    private static final String CHARACTER_SET = " character set ";

    /**
     * MariaDB's version comment around COMPRESSED, e.g. {@code /*M!100301 COMPRESSED*}{@code /}.
     */
    private static final Pattern VERSION_COMMENT = Pattern.compile("/\\*m?!\\d*\\s*(.*?)\\*/");

    /** The types whose values are characters in a character set. */
    private static final Set<String> CHARACTER_TYPES =
            Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set");

    /** The types whose values are enumerated labels. */
    private static final Set<String> LABEL_TYPES = Set.of("enum", "set");

    /**
     * Parses a canonical type; case is folded everywhere except inside quoted labels.
     *
     * @throws IllegalArgumentException if it is not {@code base[(params)][ unsigned][ zerofill][
     *     character set cs]}
     */
    static MySqlColumnType parse(String text) {
        int i = 0;
        int n = text.length();
        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
            i++;
        }
        if (i == 0) {
            throw bad(text);
        }
        String base = text.substring(0, i).toLowerCase(Locale.ROOT);
        String params = null;
        if (i < n && text.charAt(i) == '(') {
            int close = closingParenthesis(text, i);
            params = text.substring(i + 1, close);
            if (!LABEL_TYPES.contains(base)) {
                params = params.toLowerCase(Locale.ROOT);
            }
            i = close + 1;
        }
        String rest =
                VERSION_COMMENT
                        .matcher(text.substring(i).toLowerCase(Locale.ROOT))
                        .replaceAll(" $1 ");
        String charset = null;
        int cs = rest.indexOf(CHARACTER_SET);
        if (cs >= 0) {
            charset = rest.substring(cs + CHARACTER_SET.length()).trim();
            rest = rest.substring(0, cs);
        }
        boolean unsigned = false;
        boolean zerofill = false;
        boolean compressed = false;
        for (String word : rest.trim().split(" +")) {
            switch (word) {
                case "" -> {}
                case "unsigned" -> unsigned = true;
                case "zerofill" -> zerofill = true;
                case "compressed" -> compressed = true;
                default -> throw bad(text);
            }
        }
        return new MySqlColumnType(base, params, unsigned, zerofill, compressed, charset);
    }

    /** Whether the type holds characters of a character set. */
    static boolean isCharacter(String base) {
        return CHARACTER_TYPES.contains(base);
    }

    boolean isCharacter() {
        return isCharacter(base);
    }

    /** {@code COLUMN_TYPE} without the character set, MariaDB's COMPRESSED comment as a word. */
    String columnType() {
        StringBuilder text = new StringBuilder(base);
        if (params != null) {
            text.append('(').append(params).append(')');
        }
        if (unsigned) {
            text.append(" unsigned");
        }
        if (zerofill) {
            text.append(" zerofill");
        }
        if (compressed) {
            text.append(" compressed");
        }
        return text.toString();
    }

    /** The source type: {@link #columnType()} and, for a character column, its character set. */
    String sourceType() {
        return charset == null ? columnType() : columnType() + CHARACTER_SET + charset;
    }

    MySqlColumnType withCharset(String newCharset) {
        return new MySqlColumnType(base, params, unsigned, zerofill, compressed, newCharset);
    }

    MySqlColumnType withBase(String newBase) {
        return new MySqlColumnType(newBase, params, unsigned, zerofill, compressed, charset);
    }

    /** The first parameter as a number: a length, width or precision. */
    int length() {
        if (params == null) {
            throw new IllegalArgumentException("type has no length: type=" + columnType());
        }
        int comma = params.indexOf(',');
        return Integer.parseInt((comma < 0 ? params : params.substring(0, comma)).trim());
    }

    /** The labels of an ENUM or SET, unquoted and unescaped, in definition order. */
    List<String> labels() {
        if (!LABEL_TYPES.contains(base) || params == null) {
            throw new IllegalArgumentException("type has no labels: type=" + columnType());
        }
        List<String> labels = new ArrayList<>();
        int i = 0;
        int n = params.length();
        while (i < n) {
            if (params.charAt(i) != '\'') {
                throw bad(columnType());
            }
            StringBuilder label = new StringBuilder();
            i++;
            while (true) {
                if (i >= n) {
                    throw bad(columnType());
                }
                char c = params.charAt(i++);
                if (c == '\'') {
                    if (i < n && params.charAt(i) == '\'') {
                        label.append('\'');
                        i++;
                        continue;
                    }
                    break;
                }
                if (c == '\\' && i < n) {
                    label.append(unescape(params.charAt(i++)));
                    continue;
                }
                label.append(c);
            }
            labels.add(label.toString());
            if (i < n && params.charAt(i++) != ',') {
                throw bad(columnType());
            }
        }
        return labels;
    }

    /**
     * The labels as information_schema writes them: quoted, a quote doubled, and backslash, NUL,
     * newline and carriage return escaped with a backslash.
     */
    static String quoteLabels(List<String> labels) {
        StringBuilder text = new StringBuilder();
        for (String label : labels) {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append('\'');
            for (int i = 0; i < label.length(); i++) {
                char c = label.charAt(i);
                switch (c) {
                    case '\'' -> text.append("''");
                    case '\\' -> text.append("\\\\");
                    case '\0' -> text.append("\\0");
                    case '\n' -> text.append("\\n");
                    case '\r' -> text.append("\\r");
                    default -> text.append(c);
                }
            }
            text.append('\'');
        }
        return text.toString();
    }

    static char unescape(char c) {
        return switch (c) {
            case '0' -> '\0';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'Z' -> '\u001A';
            default -> c;
        };
    }

    /** The index of the parenthesis that closes the one at {@code open}, skipping quoted text. */
    private static int closingParenthesis(String text, int open) {
        boolean quoted = false;
        for (int i = open + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '\'') {
                    quoted = false; // a doubled quote reopens at once on the next char
                }
            } else if (c == '\'') {
                quoted = true;
            } else if (c == ')') {
                return i;
            }
        }
        throw bad(text);
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("malformed column type: type=" + text);
    }
}
