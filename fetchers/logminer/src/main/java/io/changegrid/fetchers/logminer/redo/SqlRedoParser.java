package io.changegrid.fetchers.logminer.redo;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the {@code SQL_REDO} LogMiner renders for one row change, in the fixed shapes of Oracle's
 * LogMiner documentation:
 *
 * <pre>
 * insert into "S"."T"("A","B") values ('1',NULL);
 * update "S"."T" set "B" = 'y' where "A" = '1' and "B" IS NULL and ROWID = 'AAAS..';
 * delete from "S"."T" where "A" = '1' and "B" = 'x';
 * </pre>
 *
 * A value is a quoted string ({@code ''} inside is one quote, newlines are kept), a bare number,
 * {@code NULL}, {@code HEXTORAW('..')}, {@code UNISTR('..')}, {@code TO_DATE('..', '..')}, {@code
 * TO_TIMESTAMP('..'[, '..'])}, {@code TO_TIMESTAMP_TZ('..'[, '..'])}, {@code TO_DSINTERVAL('..')},
 * {@code TO_YMINTERVAL('..')}, {@code EMPTY_BLOB()}, {@code EMPTY_CLOB()}, {@code Unsupported
 * Type}, or text pieces joined with {@code ||} (LogMiner splits long literals so). Keywords are
 * matched without regard to case; identifiers are always double-quoted ({@code ""} inside is one
 * quote). A {@code ROWID = '..'} condition is skipped: the row id comes in its own column.
 *
 * <p>A hand-written cursor over the string, no regular expressions: the parser runs once per row
 * change, on the fetcher's thread. Not thread-safe; one per fetcher.
 */
public final class SqlRedoParser {

    private final List<String> columns = new ArrayList<>();
    private final List<RedoValue> values = new ArrayList<>();
    private final List<String> whereColumns = new ArrayList<>();
    private final List<RedoValue> whereValues = new ArrayList<>();
    private final StringBuilder scratch = new StringBuilder();
    private String sql;
    private int at;

    /**
     * Parses one statement.
     *
     * @throws RedoSyntaxException naming what was expected, where, and the text there
     */
    public RedoStatement parse(String sqlRedo) {
        this.sql = sqlRedo;
        this.at = 0;
        columns.clear();
        values.clear();
        whereColumns.clear();
        whereValues.clear();
        skipSpace();
        RedoStatement.Kind kind;
        String owner;
        String table;
        if (keyword("insert")) {
            expectKeyword("into");
            owner = identifier();
            expect('.');
            table = identifier();
            expect('(');
            do {
                columns.add(identifier());
            } while (accept(','));
            expect(')');
            expectKeyword("values");
            expect('(');
            do {
                values.add(value());
            } while (accept(','));
            expect(')');
            kind = RedoStatement.Kind.INSERT;
            if (columns.size() != values.size()) {
                throw error("as many values as columns (" + columns.size() + ")");
            }
        } else if (keyword("update")) {
            owner = identifier();
            expect('.');
            table = identifier();
            expectKeyword("set");
            do {
                columns.add(identifier());
                expect('=');
                values.add(value());
            } while (accept(','));
            where();
            kind = RedoStatement.Kind.UPDATE;
        } else if (keyword("delete")) {
            expectKeyword("from");
            owner = identifier();
            expect('.');
            table = identifier();
            where();
            kind = RedoStatement.Kind.DELETE;
        } else {
            throw error("insert, update or delete");
        }
        accept(';');
        if (at != sql.length()) {
            throw error("the end of the statement");
        }
        return new RedoStatement(
                kind,
                owner,
                table,
                columns.toArray(new String[0]),
                values.toArray(new RedoValue[0]),
                whereColumns.toArray(new String[0]),
                whereValues.toArray(new RedoValue[0]));
    }

    private void where() {
        if (!keyword("where")) {
            return; // an update of LOB columns only, say: no condition rendered
        }
        do {
            if (peek() == '"') {
                whereColumns.add(identifier());
                if (keyword("is")) {
                    expectKeyword("null");
                    whereValues.add(RedoValue.NULL);
                } else {
                    expect('=');
                    whereValues.add(value());
                }
            } else if (keyword("rowid")) {
                expect('=');
                quoted(); // the row id is in ROW_ID
            } else {
                throw error("a quoted column name or ROWID");
            }
        } while (keyword("and"));
    }

    private RedoValue value() {
        RedoValue first = term();
        if (!lookingAt("||")) {
            return first;
        }
        if (first.form() != RedoValue.Form.TEXT && first.form() != RedoValue.Form.HEX) {
            throw error("no || after a " + first.form() + " value");
        }
        StringBuilder joined = new StringBuilder(first.text());
        while (lookingAt("||")) {
            at += 2;
            skipSpace();
            RedoValue next = term();
            if (next.form() != first.form()) {
                throw error("a " + first.form() + " piece after ||, not " + next.form());
            }
            joined.append(next.text());
        }
        return new RedoValue(first.form(), joined.toString(), null);
    }

    private RedoValue term() {
        char c = peek();
        if (c == '\'') {
            return RedoValue.text(quoted());
        }
        if (c == '-' || c == '.' || (c >= '0' && c <= '9')) {
            return RedoValue.text(number());
        }
        String word = word();
        switch (word.toUpperCase(java.util.Locale.ROOT)) {
            case "NULL":
                return RedoValue.NULL;
            case "EMPTY_BLOB":
                expect('(');
                expect(')');
                return RedoValue.EMPTY_BLOB;
            case "EMPTY_CLOB":
                expect('(');
                expect(')');
                return RedoValue.EMPTY_CLOB;
            case "UNSUPPORTED":
                expectKeyword("type");
                return RedoValue.UNSUPPORTED;
            case "HEXTORAW":
                return new RedoValue(RedoValue.Form.HEX, oneArgument(), null);
            case "UNISTR":
                return RedoValue.text(Unistr.decode(oneArgument()));
            case "TO_DATE":
                return conversion(RedoValue.Form.DATE, true);
            case "TO_TIMESTAMP":
                return conversion(RedoValue.Form.TIMESTAMP, false);
            case "TO_TIMESTAMP_TZ":
                return conversion(RedoValue.Form.TIMESTAMP_TZ, false);
            case "TO_DSINTERVAL":
                return new RedoValue(RedoValue.Form.DS_INTERVAL, oneArgument(), null);
            case "TO_YMINTERVAL":
                return new RedoValue(RedoValue.Form.YM_INTERVAL, oneArgument(), null);
            default:
                at -= word.length();
                throw error("a value");
        }
    }

    private String oneArgument() {
        expect('(');
        String text = quoted();
        expect(')');
        return text;
    }

    private RedoValue conversion(RedoValue.Form form, boolean formatRequired) {
        expect('(');
        String text = quoted();
        String format = null;
        if (formatRequired || peek() == ',') {
            expect(',');
            format = quoted();
        }
        expect(')');
        return new RedoValue(form, text, format);
    }

    /** A single-quoted literal, {@code ''} unescaped; everything else inside is kept as is. */
    private String quoted() {
        if (peek() != '\'') {
            throw error("a quoted value");
        }
        int start = ++at;
        int end = sql.indexOf('\'', start);
        if (end < 0) {
            throw error("a closing quote");
        }
        String text;
        if (end + 1 < sql.length() && sql.charAt(end + 1) == '\'') {
            scratch.setLength(0);
            int from = start;
            while (true) {
                if (end < 0) {
                    at = start - 1;
                    throw error("a closing quote");
                }
                if (end + 1 < sql.length() && sql.charAt(end + 1) == '\'') {
                    scratch.append(sql, from, end + 1);
                    from = end + 2;
                    end = sql.indexOf('\'', from);
                } else {
                    scratch.append(sql, from, end);
                    break;
                }
            }
            text = scratch.toString();
        } else {
            text = sql.substring(start, end);
        }
        at = end + 1;
        skipSpace();
        return text;
    }

    private String number() {
        int start = at;
        while (at < sql.length()) {
            char c = sql.charAt(at);
            if ((c >= '0' && c <= '9')
                    || c == '.'
                    || c == '-'
                    || c == '+'
                    || c == 'E'
                    || c == 'e') {
                at++;
            } else {
                break;
            }
        }
        String text = sql.substring(start, at);
        skipSpace();
        return text;
    }

    /** A double-quoted identifier, {@code ""} unescaped. */
    private String identifier() {
        if (peek() != '"') {
            throw error("a quoted identifier");
        }
        int start = ++at;
        int end = sql.indexOf('"', start);
        if (end < 0) {
            throw error("a closing double quote");
        }
        String name;
        if (end + 1 < sql.length() && sql.charAt(end + 1) == '"') {
            StringBuilder built = new StringBuilder();
            int from = start;
            while (end + 1 < sql.length() && sql.charAt(end + 1) == '"') {
                built.append(sql, from, end + 1);
                from = end + 2;
                end = sql.indexOf('"', from);
                if (end < 0) {
                    throw error("a closing double quote");
                }
            }
            name = built.append(sql, from, end).toString();
        } else {
            name = sql.substring(start, end);
        }
        at = end + 1;
        skipSpace();
        return name;
    }

    /** A bare word of letters, digits and underscores. */
    private String word() {
        int start = at;
        while (at < sql.length()) {
            char c = sql.charAt(at);
            if (Character.isLetterOrDigit(c) || c == '_') {
                at++;
            } else {
                break;
            }
        }
        if (start == at) {
            throw error("a value");
        }
        String word = sql.substring(start, at);
        skipSpace();
        return word;
    }

    /** Consumes {@code word} (any case) when it is next as a whole word. */
    private boolean keyword(String word) {
        int end = at + word.length();
        if (end > sql.length() || !sql.regionMatches(true, at, word, 0, word.length())) {
            return false;
        }
        if (end < sql.length()) {
            char next = sql.charAt(end);
            if (Character.isLetterOrDigit(next) || next == '_') {
                return false;
            }
        }
        at = end;
        skipSpace();
        return true;
    }

    private void expectKeyword(String word) {
        if (!keyword(word)) {
            throw error(word);
        }
    }

    private boolean accept(char c) {
        if (peek() == c) {
            at++;
            skipSpace();
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("'" + c + "'");
        }
    }

    private boolean lookingAt(String token) {
        return sql.startsWith(token, at);
    }

    private char peek() {
        return at < sql.length() ? sql.charAt(at) : '\0';
    }

    private void skipSpace() {
        while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
            at++;
        }
    }

    private RedoSyntaxException error(String expected) {
        int from = Math.max(0, at - 20);
        int to = Math.min(sql.length(), at + 40);
        return new RedoSyntaxException(
                "SQL_REDO not in LogMiner's shape: expected="
                        + expected
                        + ", offset="
                        + at
                        + ", near="
                        + sql.substring(from, to).replace('\n', ' '));
    }
}
