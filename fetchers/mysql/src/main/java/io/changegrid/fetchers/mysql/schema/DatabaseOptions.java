package io.changegrid.fetchers.mysql.schema;

/**
 * The options of CREATE and ALTER DATABASE: {@code [DEFAULT] CHARACTER SET [=] cs}, {@code
 * [DEFAULT] COLLATE [=] c}, and the ones that do not matter here ({@code COMMENT}, MySQL's {@code
 * ENCRYPTION} and {@code READ ONLY}).
 *
 * <p>Not thread-safe; one per statement.
 */
final class DatabaseOptions {

    /** The declared character set ({@code "default"} for the server's), or null. */
    String charset;

    /** The declared collation, or null. */
    String collation;

    private DatabaseOptions() {}

    static DatabaseOptions parse(TokenCursor c) {
        DatabaseOptions options = new DatabaseOptions();
        while (!c.atEnd()) {
            c.acceptWord("DEFAULT");
            if (ColumnDefinitionParser.acceptCharsetKeyword(c)) {
                c.acceptSymbol("=");
                options.charset = c.identifierOrString();
            } else if (c.acceptWord("COLLATE")) {
                c.acceptSymbol("=");
                options.collation = c.identifierOrString();
            } else if (c.acceptWord("COMMENT") || c.acceptWord("ENCRYPTION")) {
                c.acceptSymbol("=");
                c.next();
            } else if (c.acceptWord("READ", "ONLY")) {
                c.acceptSymbol("=");
                c.next();
            } else {
                throw c.unexpected("a database option");
            }
        }
        return options;
    }

    /** Whether the next token starts an option rather than naming a database. */
    static boolean startsOption(TokenCursor c) {
        return c.isAnyWord(
                "DEFAULT",
                "CHARACTER",
                "CHARSET",
                "CHAR",
                "COLLATE",
                "COMMENT",
                "ENCRYPTION",
                "READ",
                "UPGRADE");
    }
}
