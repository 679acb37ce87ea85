package io.changegrid.fetchers.mysql.schema;

import io.changegrid.fetchers.mysql.schema.AlterSpec.Position;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code ALTER TABLE} after its {@code TABLE} keyword: {@code [IF EXISTS] name [WAIT n |
 * NOWAIT]} and the comma-separated specifications. Those that change columns, the primary key, the
 * name or character sets become {@link AlterSpec}s; indexes, foreign keys, checks, defaults,
 * options, algorithm and lock clauses and partition maintenance are recognised and dropped.
 *
 * <p>Stateless.
 */
final class AlterTableParser {

    /** Partition maintenance: always the whole statement, and never a change of columns. */
    private static final String[] PARTITION_OPERATIONS = {
        "ADD",
        "DROP",
        "COALESCE",
        "REORGANIZE",
        "EXCHANGE",
        "ANALYZE",
        "CHECK",
        "OPTIMIZE",
        "REBUILD",
        "REPAIR",
        "TRUNCATE",
        "DISCARD",
        "IMPORT"
    };

    private AlterTableParser() {}

    static DdlStatement.AlterTable parse(TokenCursor c) {
        boolean ifExists = c.acceptWord("IF", "EXISTS");
        TableName name = c.tableName();
        waitClause(c);
        List<AlterSpec> specs = new ArrayList<>();
        while (!c.atEnd()) {
            if (c.isWord("PARTITION", "BY") || c.acceptWord("REMOVE", "PARTITIONING")) {
                TableOptionsParser.skipPartitioning(c);
                break;
            }
            if (isPartitionOperation(c)) {
                if (c.isWord("CONVERT")) {
                    throw c.unsupported("partition converted to or from a table: table=" + name);
                }
                c.skipToEnd();
                break;
            }
            spec(c, specs);
            if (!c.acceptSymbol(",") && !c.atEnd() && !startsOption(c)) {
                throw c.unexpected("',' or end of statement");
            }
        }
        return new DdlStatement.AlterTable(name, ifExists, specs);
    }

    /** MariaDB's {@code WAIT n} or {@code NOWAIT} lock timeout after a table name. */
    static void waitClause(TokenCursor c) {
        if (c.acceptWord("WAIT")) {
            c.next();
        } else {
            c.acceptWord("NOWAIT");
        }
    }

    private static boolean isPartitionOperation(TokenCursor c) {
        if (c.isWord("CONVERT", "PARTITION") || c.isWord("CONVERT", "TABLE")) {
            return true;
        }
        for (String operation : PARTITION_OPERATIONS) {
            if (c.isWord(operation, "PARTITION")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Table options may follow one another without commas: {@code ENGINE=InnoDB ROW_FORMAT=...}.
     */
    private static boolean startsOption(TokenCursor c) {
        return c.peek().kind() == SqlToken.Kind.WORD;
    }

    private static void spec(TokenCursor c, List<AlterSpec> specs) {
        if (c.acceptWord("ADD")) {
            add(c, specs);
        } else if (c.acceptWord("ALTER")) {
            alter(c);
        } else if (c.acceptWord("CHANGE")) {
            c.acceptWord("COLUMN");
            boolean ifExists = c.acceptWord("IF", "EXISTS");
            String oldName = c.identifier();
            ColumnDefinition definition = ColumnDefinitionParser.parse(c);
            specs.add(new AlterSpec.ChangeColumn(oldName, definition, position(c), ifExists));
        } else if (c.acceptWord("MODIFY")) {
            c.acceptWord("COLUMN");
            boolean ifExists = c.acceptWord("IF", "EXISTS");
            ColumnDefinition definition = ColumnDefinitionParser.parse(c);
            specs.add(
                    new AlterSpec.ChangeColumn(
                            definition.name(), definition, position(c), ifExists));
        } else if (c.acceptWord("DROP")) {
            drop(c, specs);
        } else if (c.acceptWord("RENAME")) {
            rename(c, specs);
        } else if (c.acceptWord("CONVERT", "TO")) {
            if (!ColumnDefinitionParser.acceptCharsetKeyword(c)) {
                throw c.unexpected("CHARACTER SET");
            }
            String charset = c.acceptWord("DEFAULT") ? null : c.identifierOrString();
            String collation = null;
            if (c.acceptWord("COLLATE")) {
                collation = c.identifierOrString();
            }
            specs.add(new AlterSpec.ConvertCharset(charset, collation));
        } else if (c.acceptWord("ALGORITHM") || c.acceptWord("LOCK")) {
            c.acceptSymbol("=");
            c.identifier();
        } else if (c.acceptWord("FORCE")
                || c.acceptWord("ENABLE", "KEYS")
                || c.acceptWord("DISABLE", "KEYS")
                || c.acceptWord("DISCARD", "TABLESPACE")
                || c.acceptWord("IMPORT", "TABLESPACE")
                || c.acceptWord("WITH", "VALIDATION")
                || c.acceptWord("WITHOUT", "VALIDATION")) {
            // Rebuilds or maintenance: the columns stay as they are.
        } else if (c.acceptWord("ORDER", "BY")) {
            orderBy(c);
        } else {
            TableOptionsParser options = new TableOptionsParser();
            if (!options.option(c)) {
                throw c.unsupported(
                        "unknown ALTER TABLE specification: found="
                                + c.peek()
                                + ", position="
                                + c.peek().position());
            }
            if (options.charset != null || options.collation != null) {
                specs.add(new AlterSpec.DefaultCharset(options.charset, options.collation));
            }
        }
    }

    /**
     * The columns of {@code ORDER BY}: its commas are told from those between specifications by
     * what follows them.
     */
    private static void orderBy(TokenCursor c) {
        while (true) {
            c.identifier();
            if (!c.acceptWord("ASC")) {
                c.acceptWord("DESC");
            }
            if (!c.isSymbol(",") || !c.peek(1).isIdentifier() || isSpecStart(c.peek(1))) {
                return;
            }
            c.next();
        }
    }

    private static boolean isSpecStart(SqlToken token) {
        for (String word :
                new String[] {
                    "ADD", "ALTER", "CHANGE", "MODIFY", "DROP", "RENAME", "CONVERT", "ALGORITHM",
                    "LOCK", "FORCE", "ENABLE", "DISABLE", "ORDER", "ENGINE", "DEFAULT", "CHARACTER",
                    "CHARSET", "COLLATE", "COMMENT", "AUTO_INCREMENT", "ROW_FORMAT"
                }) {
            if (token.isWord(word)) {
                return true;
            }
        }
        return false;
    }

    private static void add(TokenCursor c, List<AlterSpec> specs) {
        if (c.acceptWord("CONSTRAINT")) {
            c.acceptWord("IF", "NOT", "EXISTS");
            if (!c.isAnyWord("PRIMARY", "UNIQUE", "FOREIGN", "CHECK")) {
                c.identifier();
            }
        }
        if (c.acceptWord("PRIMARY", "KEY")) {
            specs.add(new AlterSpec.AddPrimaryKey(CreateTableParser.primaryKeyColumns(c)));
        } else if (c.isAnyWord(
                "INDEX", "KEY", "FULLTEXT", "SPATIAL", "UNIQUE", "FOREIGN", "CHECK")) {
            c.skipToCommaOrClose();
        } else if (c.isWord("SYSTEM", "VERSIONING") || c.isWord("PERIOD", "FOR", "SYSTEM_TIME")) {
            throw c.unsupported("system versioning added");
        } else if (c.acceptWord("PERIOD", "FOR")) {
            c.skipToCommaOrClose();
        } else {
            c.acceptWord("COLUMN");
            boolean ifNotExists = c.acceptWord("IF", "NOT", "EXISTS");
            if (c.acceptSymbol("(")) {
                do {
                    specs.add(
                            new AlterSpec.AddColumn(
                                    ColumnDefinitionParser.parse(c), Position.NONE, ifNotExists));
                } while (c.acceptSymbol(","));
                c.expectSymbol(")");
            } else {
                ColumnDefinition definition = ColumnDefinitionParser.parse(c);
                specs.add(new AlterSpec.AddColumn(definition, position(c), ifNotExists));
            }
        }
    }

    /**
     * {@code ALTER [COLUMN] c {SET DEFAULT v | DROP DEFAULT | SET [IN]VISIBLE}}, index visibility,
     * check enforcement.
     */
    private static void alter(TokenCursor c) {
        if (c.isAnyWord("INDEX", "KEY", "CHECK", "CONSTRAINT")) {
            c.skipToCommaOrClose();
            return;
        }
        c.acceptWord("COLUMN");
        c.acceptWord("IF", "EXISTS");
        c.identifier();
        if (c.acceptWord("SET", "DEFAULT")) {
            ColumnDefinitionParser.skipValue(c);
        } else if (!c.acceptWord("DROP", "DEFAULT")
                && !c.acceptWord("SET", "VISIBLE")
                && !c.acceptWord("SET", "INVISIBLE")) {
            throw c.unexpected("SET DEFAULT, DROP DEFAULT or SET [IN]VISIBLE");
        }
    }

    private static void drop(TokenCursor c, List<AlterSpec> specs) {
        if (c.acceptWord("PRIMARY", "KEY")) {
            specs.add(new AlterSpec.DropPrimaryKey());
        } else if (c.acceptWord("INDEX") || c.acceptWord("KEY") || c.acceptWord("CONSTRAINT")) {
            c.acceptWord("IF", "EXISTS");
            if (c.identifier().equalsIgnoreCase("PRIMARY")) {
                specs.add(new AlterSpec.DropPrimaryKey());
            }
        } else if (c.acceptWord("FOREIGN", "KEY")) {
            c.acceptWord("IF", "EXISTS");
            c.identifier();
        } else if (c.acceptWord("CHECK")) {
            c.identifier();
        } else if (c.isWord("SYSTEM", "VERSIONING") || c.isWord("PERIOD", "FOR", "SYSTEM_TIME")) {
            throw c.unsupported("system versioning dropped");
        } else if (c.acceptWord("PERIOD", "FOR")) {
            c.acceptWord("IF", "EXISTS");
            c.identifier();
        } else {
            c.acceptWord("COLUMN");
            boolean ifExists = c.acceptWord("IF", "EXISTS");
            String name = c.identifier();
            if (!c.acceptWord("RESTRICT")) {
                c.acceptWord("CASCADE");
            }
            specs.add(new AlterSpec.DropColumn(name, ifExists));
        }
    }

    private static void rename(TokenCursor c, List<AlterSpec> specs) {
        if (c.acceptWord("COLUMN")) {
            boolean ifExists = c.acceptWord("IF", "EXISTS");
            String oldName = c.identifier();
            c.expectWord("TO");
            specs.add(new AlterSpec.RenameColumn(oldName, c.identifier(), ifExists));
        } else if (c.isAnyWord("INDEX", "KEY")) {
            c.skipToCommaOrClose();
        } else {
            if (!c.acceptWord("TO")) {
                c.acceptWord("AS");
            }
            specs.add(new AlterSpec.RenameTable(c.tableName()));
        }
    }

    /** {@code FIRST}, {@code AFTER column}, or neither. */
    private static Position position(TokenCursor c) {
        if (c.acceptWord("FIRST")) {
            return new Position(true, null);
        }
        if (c.acceptWord("AFTER")) {
            return new Position(false, c.identifier());
        }
        return Position.NONE;
    }
}
