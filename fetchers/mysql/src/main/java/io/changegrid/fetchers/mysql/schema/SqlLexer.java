package io.changegrid.fetchers.mysql.schema;

import io.changegrid.fetchers.mysql.schema.SqlToken.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a MySQL statement into tokens, dropping comments: {@code /* *}{@code /}, {@code -- } to
 * the end of the line, and {@code #} to the end of the line. The content of an executable comment
 * ({@code /*!40101 ... *}{@code /}, and MariaDB's {@code /*M!100100 ... *}{@code /}) counts as
 * statement text when the server's version is at least the one in the comment, exactly as the
 * server reads it; optimizer hints ({@code /*+ ... *}{@code /}) are comments.
 *
 * <p>Strings take MySQL's backslash escapes and doubled quotes (a statement logged under {@code
 * NO_BACKSLASH_ESCAPES} would be read differently; DDL seldom puts a backslash in a literal).
 * Double quotes delimit strings, not identifiers ({@code ANSI_QUOTES} off).
 *
 * <p>Not thread-safe; one instance per statement.
 */
final class SqlLexer {

    private final String sql;
    private final ServerDialect dialect;
    private final List<SqlToken> tokens = new ArrayList<>();
    private int pos;
    private boolean inExecutableComment;

    private SqlLexer(String sql, ServerDialect dialect) {
        this.sql = sql;
        this.dialect = dialect;
    }

    /**
     * The tokens of {@code sql}, ending with an {@link Kind#END} token.
     *
     * @throws UnsupportedDdlException for an unterminated string, identifier or comment
     */
    static List<SqlToken> tokenize(String sql, ServerDialect dialect) {
        SqlLexer lexer = new SqlLexer(sql, dialect);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        int n = sql.length();
        while (true) {
            skipSpaceAndComments();
            if (pos >= n) {
                break;
            }
            char c = sql.charAt(pos);
            int start = pos;
            if (c == '`') {
                tokens.add(new SqlToken(Kind.QUOTED, quoted('`'), start));
            } else if (c == '\'' || c == '"') {
                tokens.add(new SqlToken(Kind.STRING, quoted(c), start));
            } else if (isDigit(c) || (c == '.' && isDigit(at(pos + 1)) && !afterName())) {
                tokens.add(numberOrWord());
            } else if (isIdentifierChar(c)) {
                tokens.add(wordOrPrefixedLiteral());
            } else {
                tokens.add(new SqlToken(Kind.SYMBOL, symbol(), start));
            }
        }
        if (inExecutableComment) {
            throw new UnsupportedDdlException("unterminated executable comment");
        }
        tokens.add(new SqlToken(Kind.END, "", n));
    }

    private void skipSpaceAndComments() {
        int n = sql.length();
        while (pos < n) {
            char c = sql.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '#') {
                skipLine();
            } else if (c == '-' && at(pos + 1) == '-' && (pos + 2 >= n || at(pos + 2) <= ' ')) {
                skipLine();
            } else if (c == '/' && at(pos + 1) == '*') {
                blockComment();
            } else if (c == '*' && at(pos + 1) == '/' && inExecutableComment) {
                inExecutableComment = false;
                pos += 2;
            } else {
                return;
            }
        }
    }

    private void skipLine() {
        while (pos < sql.length() && sql.charAt(pos) != '\n') {
            pos++;
        }
    }

    /** At {@code /*}: skips a comment, or enters an executable comment whose content counts. */
    private void blockComment() {
        int p = pos + 2;
        boolean mariaDbOnly = at(p) == 'M' && at(p + 1) == '!';
        if (mariaDbOnly) {
            p++;
        }
        if (at(p) == '!' && !inExecutableComment) {
            p++;
            int digits = p;
            while (p < sql.length() && isDigit(sql.charAt(p)) && p - digits < 6) {
                p++;
            }
            int version = p > digits ? Integer.parseInt(sql.substring(digits, p)) : 0;
            boolean counts =
                    version <= dialect.version()
                            && (!mariaDbOnly || dialect.flavor() == ServerDialect.Flavor.MARIADB);
            if (counts) {
                inExecutableComment = true;
                pos = p;
                return;
            }
        }
        int end = sql.indexOf("*/", pos + 2);
        if (end < 0) {
            throw new UnsupportedDdlException("unterminated comment: position=" + pos);
        }
        pos = end + 2;
    }

    /**
     * A quoted string or identifier; a doubled quote is one quote, a backslash escapes in strings.
     */
    private String quoted(char quote) {
        int start = pos;
        StringBuilder text = new StringBuilder();
        pos++;
        while (pos < sql.length()) {
            char c = sql.charAt(pos++);
            if (c == quote) {
                if (at(pos) == quote) {
                    text.append(quote);
                    pos++;
                    continue;
                }
                return text.toString();
            }
            if (c == '\\' && quote != '`' && pos < sql.length()) {
                char e = sql.charAt(pos++);
                // \% and \_ keep their backslash: they are escapes only in LIKE patterns.
                if (e == '%' || e == '_') {
                    text.append('\\');
                }
                text.append(MySqlColumnType.unescape(e));
                continue;
            }
            text.append(c);
        }
        throw new UnsupportedDdlException(
                "unterminated " + (quote == '`' ? "identifier" : "string") + ": position=" + start);
    }

    /**
     * A number ({@code 12}, {@code 1.5e3}, {@code .5}, {@code 0x1F}, {@code 0b101}), or an
     * identifier that merely starts with digits ({@code 1st_column}).
     */
    private SqlToken numberOrWord() {
        int start = pos;
        int n = sql.length();
        if (sql.charAt(pos) == '0' && (at(pos + 1) == 'x' || at(pos + 1) == 'b')) {
            String digits = at(pos + 1) == 'x' ? "0123456789abcdefABCDEF" : "01";
            int p = pos + 2;
            while (p < n && digits.indexOf(sql.charAt(p)) >= 0) {
                p++;
            }
            if (p < n && isIdentifierChar(sql.charAt(p))) {
                return word(start);
            }
            pos = p;
            return new SqlToken(Kind.NUMBER, sql.substring(start, p), start);
        }
        int p = pos;
        while (p < n && isDigit(sql.charAt(p))) {
            p++;
        }
        if (p < n && sql.charAt(p) == '.') {
            p++;
            while (p < n && isDigit(sql.charAt(p))) {
                p++;
            }
        }
        if (p < n && (sql.charAt(p) == 'e' || sql.charAt(p) == 'E')) {
            int q = p + 1;
            if (q < n && (sql.charAt(q) == '+' || sql.charAt(q) == '-')) {
                q++;
            }
            if (q < n && isDigit(sql.charAt(q))) {
                p = q;
                while (p < n && isDigit(sql.charAt(p))) {
                    p++;
                }
            }
        }
        if (p < n && isIdentifierChar(sql.charAt(p)) && sql.charAt(start) != '.') {
            return word(start);
        }
        pos = p;
        return new SqlToken(Kind.NUMBER, sql.substring(start, p), start);
    }

    /**
     * A word, or a literal written with a one-letter prefix: {@code x'0F'} and {@code b'01'}
     * (numbers), {@code N'text'} (a string in the national character set).
     */
    private SqlToken wordOrPrefixedLiteral() {
        int start = pos;
        char c = Character.toLowerCase(sql.charAt(pos));
        if ((c == 'x' || c == 'b' || c == 'n') && at(pos + 1) == '\'') {
            pos++;
            String body = quoted('\'');
            return c == 'n'
                    ? new SqlToken(Kind.STRING, body, start)
                    : new SqlToken(Kind.NUMBER, c + "'" + body + "'", start);
        }
        return word(start);
    }

    private SqlToken word(int start) {
        pos = start;
        while (pos < sql.length() && isIdentifierChar(sql.charAt(pos))) {
            pos++;
        }
        return new SqlToken(Kind.WORD, sql.substring(start, pos), start);
    }

    private static final String[] TWO_CHAR_SYMBOLS = {
        "<=", ">=", "<>", "!=", ":=", "||", "&&", "<<", ">>", "->"
    };

    private String symbol() {
        if (sql.startsWith("<=>", pos) || sql.startsWith("->>", pos)) {
            pos += 3;
            return sql.substring(pos - 3, pos);
        }
        for (String symbol : TWO_CHAR_SYMBOLS) {
            if (sql.startsWith(symbol, pos)) {
                pos += 2;
                return symbol;
            }
        }
        return String.valueOf(sql.charAt(pos++));
    }

    /** Whether a name ends right before {@code pos}, so that {@code .5} there is a qualifier. */
    private boolean afterName() {
        char previous = pos > 0 ? sql.charAt(pos - 1) : ' ';
        return isIdentifierChar(previous) || previous == '`';
    }

    private char at(int index) {
        return index < sql.length() ? sql.charAt(index) : '\0';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * Unquoted identifiers: ASCII letters, digits, {@code _}, {@code $}, and anything non-ASCII.
     */
    private static boolean isIdentifierChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || isDigit(c)
                || c == '_'
                || c == '$'
                || c >= 0x80;
    }
}
