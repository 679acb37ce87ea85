package io.changegrid.fetchers.mysql.schema;

import io.changegrid.fetchers.mysql.schema.SqlToken.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the text of a binlog QUERY event into a {@link DdlStatement}: CREATE/ALTER/DROP/RENAME/
 * TRUNCATE TABLE, CREATE/ALTER/DROP DATABASE, views and sequences (which share the table names),
 * {@code DROP INDEX `PRIMARY`}; statements known to leave table schemas alone (transaction control,
 * DML, grants, users, routines, triggers, events, secondary indexes, table maintenance) are {@link
 * DdlStatement.Ignored}. Anything else, and anything malformed, throws {@link
 * UnsupportedDdlException}: a statement is never half understood.
 *
 * <p>Stateless; thread-safe.
 */
final class DdlParser {

    /** First words of statements that never change a table's columns, key or name. */
    private static final Set<String> IGNORED_STATEMENTS =
            Set.of(
                    "BEGIN",
                    "COMMIT",
                    "ROLLBACK",
                    "XA",
                    "SAVEPOINT",
                    "RELEASE",
                    "START",
                    "STOP",
                    "SET",
                    "GRANT",
                    "REVOKE",
                    "FLUSH",
                    "ANALYZE",
                    "OPTIMIZE",
                    "REPAIR",
                    "CHECK",
                    "CHECKSUM",
                    "INSERT",
                    "UPDATE",
                    "DELETE",
                    "REPLACE",
                    "LOAD",
                    "CALL",
                    "DO",
                    "USE",
                    "SELECT",
                    "WITH",
                    "VALUES",
                    "LOCK",
                    "UNLOCK",
                    "INSTALL",
                    "UNINSTALL",
                    "SHOW",
                    "HANDLER",
                    "PURGE",
                    "RESET",
                    "KILL",
                    "CHANGE",
                    "EXECUTE",
                    "PREPARE",
                    "DEALLOCATE",
                    "BACKUP",
                    "SIGNAL",
                    "RESIGNAL",
                    "HELP",
                    "DESCRIBE",
                    "DESC",
                    "EXPLAIN",
                    "CACHE",
                    "SHUTDOWN",
                    "BINLOG");

    /** Objects whose CREATE, ALTER or DROP leaves table schemas alone. */
    private static final Set<String> IGNORED_OBJECTS =
            Set.of(
                    "USER",
                    "ROLE",
                    "PROCEDURE",
                    "FUNCTION",
                    "AGGREGATE",
                    "TRIGGER",
                    "EVENT",
                    "SERVER",
                    "TABLESPACE",
                    "LOGFILE",
                    "PACKAGE",
                    "RESOURCE",
                    "SPATIAL",
                    "INSTANCE",
                    "UNDO",
                    "SYNONYM");

    private DdlParser() {}

    /**
     * Parses one statement.
     *
     * @param sql the statement text
     * @param defaultDatabase the session's database (the QUERY event's), for unqualified names;
     *     null or empty for none
     * @throws UnsupportedDdlException naming the reason and the tables named so far
     */
    static DdlStatement parse(String sql, String defaultDatabase, ServerDialect dialect) {
        TokenCursor c = new TokenCursor(sql, defaultDatabase, dialect);
        if (c.atEnd()) {
            return new DdlStatement.Ignored("empty statement");
        }
        if (c.isSymbol("(")) {
            return new DdlStatement.Ignored("query");
        }
        if (c.peek().kind() != Kind.WORD) {
            throw c.unexpected("a statement");
        }
        String first = c.peek().text().toUpperCase(Locale.ROOT);
        return switch (first) {
            case "CREATE" -> create(c);
            case "ALTER" -> alter(c);
            case "DROP" -> drop(c);
            case "RENAME" -> rename(c);
            case "TRUNCATE" -> truncate(c);
            default -> {
                if (IGNORED_STATEMENTS.contains(first)) {
                    yield new DdlStatement.Ignored(first);
                }
                throw c.unsupported("unknown statement: keyword=" + c.peek().text());
            }
        };
    }

    private static DdlStatement create(TokenCursor c) {
        c.expectWord("CREATE");
        boolean orReplace = c.acceptWord("OR", "REPLACE");
        skipViewAndRoutineOptions(c);
        boolean temporary = c.acceptWord("TEMPORARY");
        if (c.acceptWord("TABLE")) {
            return temporary
                    ? new DdlStatement.Ignored("temporary table")
                    : CreateTableParser.parse(c, orReplace);
        }
        if (c.acceptWord("DATABASE") || c.acceptWord("SCHEMA")) {
            boolean ifNotExists = c.acceptWord("IF", "NOT", "EXISTS");
            String name = c.dialect().storedName(c.identifier());
            DatabaseOptions options = DatabaseOptions.parse(c);
            return new DdlStatement.CreateDatabase(
                    name, orReplace, ifNotExists, options.charset, options.collation);
        }
        if (c.acceptWord("VIEW")) {
            c.acceptWord("IF", "NOT", "EXISTS");
            return new DdlStatement.CreateView(c.tableName());
        }
        if (c.acceptWord("SEQUENCE")) {
            if (temporary) {
                return new DdlStatement.Ignored("temporary sequence");
            }
            boolean ifNotExists = c.acceptWord("IF", "NOT", "EXISTS");
            return new DdlStatement.CreateSequence(c.tableName(), orReplace, ifNotExists);
        }
        c.acceptWord("ONLINE");
        c.acceptWord("OFFLINE");
        if (c.acceptWord("INDEX")
                || c.isWord("UNIQUE", "INDEX")
                || c.isWord("FULLTEXT", "INDEX")
                || c.isWord("SPATIAL", "INDEX")) {
            return new DdlStatement.Ignored("index"); // CREATE INDEX cannot make a primary key
        }
        return ignoredObjectOrUnsupported(c, "CREATE");
    }

    private static DdlStatement alter(TokenCursor c) {
        c.expectWord("ALTER");
        c.acceptWord("ONLINE");
        c.acceptWord("OFFLINE");
        c.acceptWord("IGNORE");
        if (c.acceptWord("TABLE")) {
            return AlterTableParser.parse(c);
        }
        if (c.acceptWord("DATABASE") || c.acceptWord("SCHEMA")) {
            String name = null;
            if (c.peek().isIdentifier() && !DatabaseOptions.startsOption(c)) {
                name = c.dialect().storedName(c.identifier());
            }
            if (c.acceptWord("UPGRADE")) {
                return new DdlStatement.Ignored("database directory upgrade");
            }
            DatabaseOptions options = DatabaseOptions.parse(c);
            return new DdlStatement.AlterDatabase(
                    name == null ? c.defaultDatabase() : name, options.charset, options.collation);
        }
        skipViewAndRoutineOptions(c);
        if (c.acceptWord("VIEW") || c.acceptWord("SEQUENCE")) {
            return new DdlStatement.Ignored("view or sequence altered");
        }
        return ignoredObjectOrUnsupported(c, "ALTER");
    }

    private static DdlStatement drop(TokenCursor c) {
        c.expectWord("DROP");
        boolean temporary = c.acceptWord("TEMPORARY");
        if (c.acceptWord("TABLE") || c.acceptWord("TABLES") || c.acceptWord("SEQUENCE")) {
            if (temporary) {
                return new DdlStatement.Ignored("temporary table");
            }
            boolean ifExists = c.acceptWord("IF", "EXISTS");
            List<TableName> names = tableNames(c);
            skipDropTail(c);
            return new DdlStatement.DropTables(names, ifExists);
        }
        if (c.acceptWord("DATABASE") || c.acceptWord("SCHEMA")) {
            boolean ifExists = c.acceptWord("IF", "EXISTS");
            String name = c.dialect().storedName(c.identifier());
            c.expectEnd();
            return new DdlStatement.DropDatabase(name, ifExists);
        }
        if (c.acceptWord("VIEW")) {
            c.acceptWord("IF", "EXISTS");
            List<TableName> names = tableNames(c);
            skipDropTail(c);
            return new DdlStatement.DropViews(names);
        }
        c.acceptWord("ONLINE");
        c.acceptWord("OFFLINE");
        if (c.acceptWord("INDEX")) {
            c.acceptWord("IF", "EXISTS");
            String index = c.identifier();
            c.expectWord("ON");
            TableName table = c.tableName();
            if (!index.equalsIgnoreCase("PRIMARY")) {
                return new DdlStatement.Ignored("index");
            }
            return new DdlStatement.AlterTable(
                    table, false, List.of(new AlterSpec.DropPrimaryKey()));
        }
        return ignoredObjectOrUnsupported(c, "DROP");
    }

    private static DdlStatement rename(TokenCursor c) {
        c.expectWord("RENAME");
        if (c.isWord("USER")) {
            return new DdlStatement.Ignored("user");
        }
        if (!c.acceptWord("TABLE")) {
            c.expectWord("TABLES");
        }
        boolean ifExists = c.acceptWord("IF", "EXISTS");
        List<DdlStatement.Rename> renames = new ArrayList<>();
        do {
            TableName from = c.tableName();
            AlterTableParser.waitClause(c);
            c.expectWord("TO");
            renames.add(new DdlStatement.Rename(from, c.tableName()));
        } while (c.acceptSymbol(","));
        c.expectEnd();
        return new DdlStatement.RenameTables(renames, ifExists);
    }

    private static DdlStatement truncate(TokenCursor c) {
        c.expectWord("TRUNCATE");
        c.acceptWord("TABLE");
        TableName name = c.tableName();
        AlterTableParser.waitClause(c);
        c.expectEnd();
        return new DdlStatement.TruncateTable(name);
    }

    private static List<TableName> tableNames(TokenCursor c) {
        List<TableName> names = new ArrayList<>();
        do {
            names.add(c.tableName());
        } while (c.acceptSymbol(","));
        return names;
    }

    private static void skipDropTail(TokenCursor c) {
        AlterTableParser.waitClause(c);
        if (!c.acceptWord("RESTRICT")) {
            c.acceptWord("CASCADE");
        }
        c.expectEnd();
    }

    /**
     * Skips {@code ALGORITHM = x}, {@code DEFINER = user}, {@code SQL SECURITY x} before VIEW,
     * PROCEDURE, FUNCTION, TRIGGER or EVENT, as the server writes them into the binlog.
     */
    private static void skipViewAndRoutineOptions(TokenCursor c) {
        while (true) {
            if (c.acceptWord("ALGORITHM")) {
                c.expectSymbol("=");
                c.identifier();
            } else if (c.acceptWord("DEFINER")) {
                c.expectSymbol("=");
                userName(c);
            } else if (c.acceptWord("SQL", "SECURITY")) {
                c.identifier();
            } else {
                return;
            }
        }
    }

    /** {@code user@host}, each part a word, backquoted name or string; or CURRENT_USER[()]. */
    private static void userName(TokenCursor c) {
        if (c.acceptWord("CURRENT_USER")) {
            if (c.acceptSymbol("(")) {
                c.expectSymbol(")");
            }
            return;
        }
        c.next();
        if (c.acceptSymbol("@")) {
            c.next();
        } else if (c.peek().kind() == Kind.SYMBOL && c.peek().text().startsWith("@")) {
            c.next();
        }
    }

    private static DdlStatement ignoredObjectOrUnsupported(TokenCursor c, String verb) {
        SqlToken object = c.peek();
        if (object.kind() == Kind.WORD
                && IGNORED_OBJECTS.contains(object.text().toUpperCase(Locale.ROOT))) {
            return new DdlStatement.Ignored(verb + " " + object.text().toUpperCase(Locale.ROOT));
        }
        throw c.unsupported("unknown " + verb + " statement: object=" + object);
    }
}
