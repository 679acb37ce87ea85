package io.changegrid.fetchers.mysql.schema;

import io.changegrid.fetchers.mysql.schema.SqlToken.Kind;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the table options of CREATE and ALTER TABLE ({@code ENGINE=InnoDB}, {@code DEFAULT
 * CHARSET=latin1}, {@code COMMENT='x'}, ...), keeping the default character set and collation,
 * which decide the character set of columns declared without one. Options that would turn the table
 * into something the tracker does not follow (a sequence, system versioning) make it unsupported.
 *
 * <p>Not thread-safe; one per statement.
 */
final class TableOptionsParser {

    /** Options of the form {@code NAME [=] value}, from MariaDB 10.11 and MySQL 8. */
    private static final Set<String> VALUED =
            Set.of(
                    "ENGINE",
                    "TYPE",
                    "AUTO_INCREMENT",
                    "AVG_ROW_LENGTH",
                    "CHECKSUM",
                    "TABLE_CHECKSUM",
                    "COMMENT",
                    "COMPRESSION",
                    "CONNECTION",
                    "DELAY_KEY_WRITE",
                    "ENCRYPTION",
                    "ENCRYPTED",
                    "ENCRYPTION_KEY_ID",
                    "INSERT_METHOD",
                    "KEY_BLOCK_SIZE",
                    "MAX_ROWS",
                    "MIN_ROWS",
                    "PACK_KEYS",
                    "PAGE_CHECKSUM",
                    "PAGE_COMPRESSED",
                    "PAGE_COMPRESSION_LEVEL",
                    "PASSWORD",
                    "ROW_FORMAT",
                    "STATS_AUTO_RECALC",
                    "STATS_PERSISTENT",
                    "STATS_SAMPLE_PAGES",
                    "TABLESPACE",
                    "TRANSACTIONAL",
                    "IETF_QUOTES",
                    "ENGINE_ATTRIBUTE",
                    "SECONDARY_ENGINE",
                    "SECONDARY_ENGINE_ATTRIBUTE",
                    "AUTOEXTEND_SIZE",
                    "STORAGE");

    /** The declared default character set ({@code "default"} for the database's), or null. */
    String charset;

    /** The declared default collation, or null. */
    String collation;

    /**
     * Parses one option if the next tokens start one.
     *
     * @return false, consuming nothing, if they do not
     */
    boolean option(TokenCursor c) {
        if (c.isWord("DEFAULT") && (isCharset(c, 1) || c.peek(1).isWord("COLLATE"))) {
            c.next();
        }
        if (ColumnDefinitionParser.acceptCharsetKeyword(c)) {
            c.acceptSymbol("=");
            charset = c.identifierOrString();
            return true;
        }
        if (c.acceptWord("COLLATE")) {
            c.acceptSymbol("=");
            collation = c.identifierOrString();
            return true;
        }
        if (c.acceptWord("DATA", "DIRECTORY") || c.acceptWord("INDEX", "DIRECTORY")) {
            c.acceptSymbol("=");
            ColumnDefinitionParser.string(c);
            return true;
        }
        if (c.acceptWord("UNION")) {
            c.acceptSymbol("=");
            c.skipParenthesized();
            return true;
        }
        if (c.isWord("SEQUENCE")) {
            c.next();
            c.acceptSymbol("=");
            SqlToken value = c.next();
            if (!value.text().equals("0") && !value.isWord("NO")) {
                throw c.unsupported("table declared as a sequence");
            }
            return true;
        }
        if (c.isWord("WITH", "SYSTEM", "VERSIONING")) {
            throw c.unsupported("system-versioned table");
        }
        if (c.isWord("START", "TRANSACTION")) {
            c.next();
            c.next();
            return true;
        }
        SqlToken token = c.peek();
        if (token.kind() == Kind.WORD && VALUED.contains(token.text().toUpperCase(Locale.ROOT))) {
            c.next();
            c.acceptSymbol("=");
            SqlToken value = c.next();
            if (value.kind() == Kind.END || value.kind() == Kind.SYMBOL) {
                throw c.unexpected("a value for table option " + token.text());
            }
            return true;
        }
        return false;
    }

    private static boolean isCharset(TokenCursor c, int ahead) {
        return c.peek(ahead).isWord("CHARSET")
                || (c.peek(ahead).isWord("CHARACTER") && c.peek(ahead + 1).isWord("SET"))
                || (c.peek(ahead).isWord("CHAR") && c.peek(ahead + 1).isWord("SET"));
    }

    /**
     * Skips a {@code PARTITION BY ...} clause to the end of the statement, which it always ends; a
     * SELECT after it still makes the statement a CREATE ... SELECT.
     */
    static void skipPartitioning(TokenCursor c) {
        while (!c.atEnd()) {
            if (c.isSymbol("(")) {
                c.skipParenthesized();
            } else if (c.isAnyWord("SELECT", "AS")) {
                throw c.unsupported("CREATE TABLE ... SELECT");
            } else {
                c.next();
            }
        }
    }
}
