package io.changegrid.fetchers.mysql.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code CREATE TABLE} after its {@code TABLE} keyword: {@code [IF NOT EXISTS] name}, then
 * {@code LIKE other}, or the parenthesized definitions (columns, a table-level PRIMARY KEY; other
 * indexes, foreign keys, checks and periods skipped), table options and partitioning. {@code CREATE
 * TABLE ... SELECT} is unsupported: its columns come from a query. (With row-based logging the
 * server writes it to the binlog as a plain CREATE TABLE with every column spelled out, so a
 * fetcher seldom meets it.)
 *
 * <p>Stateless.
 */
final class CreateTableParser {

    private CreateTableParser() {}

    static DdlStatement parse(TokenCursor c, boolean orReplace) {
        boolean ifNotExists = c.acceptWord("IF", "NOT", "EXISTS");
        TableName name = c.tableName();
        if (c.acceptWord("LIKE")) {
            return like(c, name, orReplace, ifNotExists);
        }
        if (c.isSymbol("(") && c.peek(1).isWord("LIKE")) {
            c.next();
            c.next();
            DdlStatement like = like(c, name, orReplace, ifNotExists);
            c.expectSymbol(")");
            c.expectEnd();
            return like;
        }
        if (c.isSymbol("(")
                && (c.peek(1).isWord("SELECT")
                        || c.peek(1).isWord("WITH")
                        || c.peek(1).isSymbol("("))) {
            throw c.unsupported("CREATE TABLE ... SELECT: table=" + name);
        }
        List<ColumnDefinition> columns = new ArrayList<>();
        List<String> primaryKey = null;
        if (c.acceptSymbol("(")) {
            do {
                List<String> key = definition(c, columns);
                if (key != null) {
                    primaryKey = key;
                }
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        TableOptionsParser options = new TableOptionsParser();
        while (!c.atEnd()) {
            c.acceptSymbol(",");
            if (!options.option(c)) {
                break;
            }
        }
        if (c.isWord("PARTITION")) {
            TableOptionsParser.skipPartitioning(c);
        }
        if (!c.atEnd() || columns.isEmpty()) {
            if (columns.isEmpty()
                    || c.isAnyWord("SELECT", "AS", "WITH", "IGNORE", "REPLACE", "VALUES", "TABLE")
                    || c.isSymbol("(")) {
                throw c.unsupported("CREATE TABLE ... SELECT: table=" + name);
            }
            throw c.unexpected("a table option");
        }
        return new DdlStatement.CreateTable(
                name,
                orReplace,
                ifNotExists,
                columns,
                primaryKey,
                options.charset,
                options.collation);
    }

    private static DdlStatement like(
            TokenCursor c, TableName name, boolean orReplace, boolean ifNotExists) {
        TableName source = c.tableName();
        if (!c.isSymbol(")")) {
            c.expectEnd();
        }
        return new DdlStatement.CreateTableLike(name, source, orReplace, ifNotExists);
    }

    /**
     * One element of the definition list: a column (added to {@code columns}) or a constraint.
     *
     * @return the columns of a table-level PRIMARY KEY, else null
     */
    private static List<String> definition(TokenCursor c, List<ColumnDefinition> columns) {
        if (c.acceptWord("CONSTRAINT")) {
            if (!c.isAnyWord("PRIMARY", "UNIQUE", "FOREIGN", "CHECK")) {
                c.identifier();
            }
        }
        if (c.acceptWord("PRIMARY", "KEY")) {
            return primaryKeyColumns(c);
        }
        if (c.isAnyWord("KEY", "INDEX", "UNIQUE", "FULLTEXT", "SPATIAL", "FOREIGN", "CHECK")) {
            c.skipToCommaOrClose();
            return null;
        }
        if (c.isWord("PERIOD", "FOR")) {
            if (c.peek(2).isWord("SYSTEM_TIME")) {
                throw c.unsupported("system-versioned table");
            }
            c.skipToCommaOrClose();
            return null;
        }
        columns.add(ColumnDefinitionParser.parse(c));
        return null;
    }

    /**
     * After {@code PRIMARY KEY}: {@code [index_type | name] (column [(length)] [ASC|DESC], ...)
     * [index options]}, returning the column names in key order.
     */
    static List<String> primaryKeyColumns(TokenCursor c) {
        while (!c.isSymbol("(") && !c.atEnd()) {
            c.next(); // USING BTREE, or a name MariaDB ignores
        }
        c.expectSymbol("(");
        List<String> key = new ArrayList<>();
        do {
            if (c.isSymbol("(")) {
                throw c.unsupported("primary key on an expression");
            }
            key.add(c.identifier());
            if (c.isSymbol("(")) {
                c.skipParenthesized(); // a prefix length
            }
            if (!c.acceptWord("ASC")) {
                c.acceptWord("DESC");
            }
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        c.skipToCommaOrClose(); // USING, COMMENT, KEY_BLOCK_SIZE ...
        return key;
    }
}
