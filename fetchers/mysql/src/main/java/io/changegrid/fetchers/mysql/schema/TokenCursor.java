package io.changegrid.fetchers.mysql.schema;

import io.changegrid.fetchers.mysql.schema.SqlToken.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a statement's tokens front to back for the DDL parsers: keyword tests that ignore case,
 * identifiers, qualified table names, and skipping of parts that do not matter (expressions, index
 * definitions) with their parentheses balanced.
 *
 * <p>It also collects the tables the statement names, so that a statement it gives up on can still
 * say which tables it concerned. Not thread-safe; one per statement.
 */
final class TokenCursor {

    private final List<SqlToken> tokens;
    private final String defaultDatabase;
    private final ServerDialect dialect;
    private final List<TableName> named = new ArrayList<>();
    private int index;

    TokenCursor(String sql, String defaultDatabase, ServerDialect dialect) {
        this.tokens = SqlLexer.tokenize(sql, dialect);
        this.defaultDatabase =
                defaultDatabase == null || defaultDatabase.isEmpty() ? null : defaultDatabase;
        this.dialect = dialect;
    }

    ServerDialect dialect() {
        return dialect;
    }

    SqlToken peek() {
        return peek(0);
    }

    SqlToken peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    SqlToken next() {
        SqlToken token = peek();
        if (index < tokens.size() - 1) {
            index++;
        }
        return token;
    }

    /** At the end, or at a final semicolon. */
    boolean atEnd() {
        return peek().kind() == Kind.END || (peek().isSymbol(";") && peek(1).kind() == Kind.END);
    }

    /** Whether the next tokens are these keywords, in order. */
    boolean isWord(String... keywords) {
        for (int i = 0; i < keywords.length; i++) {
            if (!peek(i).isWord(keywords[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether the next token is any of these keywords. */
    boolean isAnyWord(String... keywords) {
        for (String keyword : keywords) {
            if (peek().isWord(keyword)) {
                return true;
            }
        }
        return false;
    }

    /** Consumes the keywords if the next tokens are exactly these. */
    boolean acceptWord(String... keywords) {
        if (!isWord(keywords)) {
            return false;
        }
        index += keywords.length;
        return true;
    }

    void expectWord(String... keywords) {
        for (String keyword : keywords) {
            if (!acceptWord(keyword)) {
                throw unexpected(keyword);
            }
        }
    }

    boolean isSymbol(String symbol) {
        return peek().isSymbol(symbol);
    }

    boolean acceptSymbol(String symbol) {
        if (!isSymbol(symbol)) {
            return false;
        }
        next();
        return true;
    }

    void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw unexpected("'" + symbol + "'");
        }
    }

    void expectEnd() {
        if (!atEnd()) {
            throw unexpected("end of statement");
        }
    }

    /** An identifier: a word or a backquoted name. */
    String identifier() {
        SqlToken token = peek();
        if (!token.isIdentifier()) {
            throw unexpected("an identifier");
        }
        return next().text();
    }

    /** An identifier, or a string where MySQL allows one (character set and collation names). */
    String identifierOrString() {
        return peek().kind() == Kind.STRING ? next().text() : identifier();
    }

    /**
     * {@code [database.]table}, resolved against the default database and stored as the server
     * stores names; remembered as one of the statement's tables.
     */
    TableName tableName() {
        String first = identifier();
        String database;
        String table;
        if (acceptSymbol(".")) {
            database = first;
            table = identifier();
        } else {
            if (defaultDatabase == null) {
                throw new UnsupportedDdlException(
                        "table name without database and no default database: table=" + first,
                        named);
            }
            database = defaultDatabase;
            table = first;
        }
        TableName name = new TableName(dialect.storedName(database), dialect.storedName(table));
        named.add(name);
        return name;
    }

    /** A database name, or the default database when {@code name} is absent. */
    String defaultDatabase() {
        if (defaultDatabase == null) {
            throw new UnsupportedDdlException("no database named and no default database");
        }
        return dialect.storedName(defaultDatabase);
    }

    /** At {@code (}: skips to after the matching {@code )}. */
    void skipParenthesized() {
        expectSymbol("(");
        int depth = 1;
        while (depth > 0) {
            SqlToken token = next();
            if (token.kind() == Kind.END) {
                throw unexpected("')'");
            } else if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")")) {
                depth--;
            }
        }
    }

    /**
     * Skips to the next {@code ,} or {@code )} outside parentheses (not consuming it), or to the
     * end: the rest of an index definition, a partition clause.
     */
    void skipToCommaOrClose() {
        while (!atEnd() && !isSymbol(",") && !isSymbol(")")) {
            if (isSymbol("(")) {
                skipParenthesized();
            } else {
                next();
            }
        }
    }

    /** Skips everything to the end of the statement. */
    void skipToEnd() {
        while (!atEnd()) {
            next();
        }
    }

    /** A parse failure at the current token, naming what was expected. */
    UnsupportedDdlException unexpected(String expected) {
        SqlToken token = peek();
        return new UnsupportedDdlException(
                "unexpected token: expected="
                        + expected
                        + ", found="
                        + token
                        + ", position="
                        + token.position(),
                named);
    }

    /** A failure for a construct the tracker does not follow. */
    UnsupportedDdlException unsupported(String reason) {
        return new UnsupportedDdlException(reason, named);
    }
}
