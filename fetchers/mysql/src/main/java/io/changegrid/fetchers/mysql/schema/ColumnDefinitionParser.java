package io.changegrid.fetchers.mysql.schema;

import io.changegrid.fetchers.mysql.schema.SqlToken.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses one column definition, {@code name type [attributes]}, into a {@link ColumnDefinition}:
 * the data type with every synonym and form MySQL and MariaDB accept, and the attributes that
 * decide the schema (NULL, NOT NULL, AUTO_INCREMENT, PRIMARY KEY, CHARACTER SET, COLLATE). The
 * other attributes (DEFAULT and ON UPDATE expressions, COMMENT, generation expressions, inline
 * CHECK and REFERENCES, storage hints) are skipped; an attribute it does not know makes the
 * statement unsupported rather than be skipped by guesswork.
 *
 * <p>Stops before {@code ,}, {@code )}, {@code FIRST} or {@code AFTER}. Stateless.
 */
final class ColumnDefinitionParser {

    /** MySQL's and MariaDB's national character set. */
    private static final String NATIONAL_CHARSET = "utf8mb3";

    private ColumnDefinitionParser() {}

    static ColumnDefinition parse(TokenCursor c) {
        String name = c.identifier();
        boolean serial = c.isWord("SERIAL");
        TypeSpec type = type(c);
        Boolean nullable = null;
        boolean autoIncrement = serial;
        boolean primaryKey = false;
        boolean unsigned = type.unsigned();
        boolean zerofill = type.zerofill();
        boolean compressed = false;
        while (!c.atEnd()
                && !c.isSymbol(",")
                && !c.isSymbol(")")
                && !c.isAnyWord("FIRST", "AFTER")) {
            if (c.acceptWord("UNSIGNED")) {
                unsigned = true;
            } else if (c.acceptWord("SIGNED")) {
                unsigned = false;
            } else if (c.acceptWord("ZEROFILL")) {
                zerofill = true;
            } else if (c.acceptWord("NOT", "NULL")) {
                nullable = Boolean.FALSE;
            } else if (c.acceptWord("NULL")) {
                nullable = Boolean.TRUE;
            } else if (c.acceptWord("DEFAULT") || c.acceptWord("ON", "UPDATE")) {
                skipValue(c);
            } else if (c.acceptWord("AUTO_INCREMENT")) {
                autoIncrement = true;
            } else if (c.acceptWord("SERIAL", "DEFAULT", "VALUE")) {
                autoIncrement = true;
            } else if (c.acceptWord("UNIQUE")) {
                c.acceptWord("KEY");
            } else if (c.acceptWord("PRIMARY", "KEY") || c.acceptWord("KEY")) {
                primaryKey = true;
            } else if (c.acceptWord("COMMENT")) {
                string(c);
            } else if (c.acceptWord("COLLATE")) {
                type = type.withCollation(c.identifierOrString());
            } else if (acceptCharsetKeyword(c)) {
                type = type.withCharset(c.identifierOrString());
            } else if (c.acceptWord("BINARY")) {
                // The binary collation of the column's character set: the set itself is unchanged.
            } else if (c.acceptWord("ASCII")) {
                type = type.withCharset("latin1");
            } else if (c.acceptWord("UNICODE")) {
                type = type.withCharset("ucs2");
            } else if (c.acceptWord("BYTE")) {
                type = type.withCharset("binary");
            } else if (c.acceptWord("COLUMN_FORMAT") || c.acceptWord("STORAGE")) {
                c.identifier();
            } else if (c.acceptWord("GENERATED", "ALWAYS", "AS") || c.acceptWord("AS")) {
                c.skipParenthesized();
            } else if (c.isAnyWord("VIRTUAL", "PERSISTENT", "STORED", "INVISIBLE", "VISIBLE")) {
                c.next();
            } else if (c.acceptWord("REFERENCES")) {
                skipReferences(c);
            } else if (c.acceptWord("CHECK")) {
                c.skipParenthesized();
            } else if (c.acceptWord("CONSTRAINT")) {
                if (!c.isWord("CHECK")) {
                    c.identifier();
                }
                c.expectWord("CHECK");
                c.skipParenthesized();
            } else if (c.acceptWord("COMPRESSED")) {
                compressed = true;
                if (c.acceptSymbol("=")) {
                    c.identifier();
                }
            } else if (c.isWord("WITH", "SYSTEM", "VERSIONING")) {
                throw c.unsupported("system-versioned column: column=" + name);
            } else if (c.acceptWord("WITHOUT", "SYSTEM", "VERSIONING")) {
                // The default: the column is simply not versioned.
            } else if (c.acceptWord("REF_SYSTEM_ID") || c.acceptWord("SRID")) {
                c.acceptSymbol("=");
                c.next();
            } else if (c.acceptWord("ENGINE_ATTRIBUTE")
                    || c.acceptWord("SECONDARY_ENGINE_ATTRIBUTE")) {
                c.acceptSymbol("=");
                string(c);
            } else {
                throw c.unsupported(
                        "unknown column attribute: column="
                                + name
                                + ", attribute="
                                + c.peek()
                                + ", position="
                                + c.peek().position());
            }
        }
        return new ColumnDefinition(
                name,
                type.withAttributes(unsigned, zerofill, compressed),
                nullable,
                autoIncrement,
                primaryKey);
    }

    /** {@code CHARACTER SET}, {@code CHARSET} or {@code CHAR SET}, consumed if present. */
    static boolean acceptCharsetKeyword(TokenCursor c) {
        return c.acceptWord("CHARACTER", "SET")
                || c.acceptWord("CHARSET")
                || c.acceptWord("CHAR", "SET");
    }

    /** The data type, synonyms resolved. */
    static TypeSpec type(TokenCursor c) {
        if (c.peek().kind() != Kind.WORD) {
            throw c.unexpected("a data type");
        }
        SqlToken token = c.next();
        String word = token.text().toLowerCase(Locale.ROOT);
        Spec s = new Spec();
        switch (word) {
            case "bit" -> s.base("bit").length(c);
            case "tinyint", "int1" -> s.base("tinyint").length(c);
            case "smallint", "int2" -> s.base("smallint").length(c);
            case "mediumint", "int3", "middleint" -> s.base("mediumint").length(c);
            case "int", "integer", "int4" -> s.base("int").length(c);
            case "bigint", "int8" -> s.base("bigint").length(c);
            case "bool", "boolean" -> s.base("tinyint").length = 1;
            case "serial" -> s.base("bigint").unsigned = true;
            case "real", "float8" -> s.base("double").precision(c);
            case "double" -> {
                c.acceptWord("PRECISION");
                s.base("double").precision(c);
            }
            case "float", "float4" -> s.base("float").precision(c);
            case "decimal", "dec", "numeric", "fixed" -> s.base("decimal").precision(c);
            case "date" -> s.base("date");
            case "time", "datetime", "timestamp", "year" -> s.base(word).length(c);
            case "char", "character" -> character(c, s, null);
            case "nchar" -> character(c, s, NATIONAL_CHARSET);
            case "national" -> {
                if (c.acceptWord("VARCHAR") || c.acceptWord("VARCHARACTER")) {
                    s.base("varchar").length(c).charset = NATIONAL_CHARSET;
                } else if (c.acceptWord("CHAR") || c.acceptWord("CHARACTER")) {
                    character(c, s, NATIONAL_CHARSET);
                } else {
                    throw c.unexpected("CHAR or VARCHAR");
                }
            }
            case "nvarchar" -> s.base("varchar").length(c).charset = NATIONAL_CHARSET;
            case "varchar", "varcharacter" -> s.base("varchar").length(c);
            case "binary" -> s.base("binary").length(c);
            case "varbinary" -> s.base("varbinary").length(c);
            case "tinyblob", "mediumblob", "longblob", "tinytext", "mediumtext", "longtext" ->
                    s.base(word);
            case "blob", "text" -> s.base(word).length(c);
            case "long" -> {
                if (c.acceptWord("VARBINARY")) {
                    s.base("mediumblob");
                } else {
                    if (!c.acceptWord("VARCHAR")) {
                        c.acceptWord("VARCHARACTER");
                    }
                    s.base("mediumtext");
                }
            }
            case "enum", "set" -> s.base(word).labels = labels(c);
            case "json" -> s.base("json");
            case "geometry",
                    "point",
                    "linestring",
                    "polygon",
                    "multipoint",
                    "multilinestring",
                    "multipolygon",
                    "geometrycollection" ->
                    s.base(word);
            case "geomcollection" -> s.base("geometrycollection");
            case "uuid", "inet4", "inet6" -> {
                if (c.dialect().flavor() != ServerDialect.Flavor.MARIADB) {
                    throw c.unsupported("unknown data type: type=" + token.text());
                }
                s.base(word);
            }
            default -> throw c.unsupported("unknown data type: type=" + token.text());
        }
        return new TypeSpec(
                s.base, s.length, s.scale, s.labels, s.unsigned, false, s.charset, null, false);
    }

    /** CHAR, CHAR VARYING, CHAR(n); {@code national} is the implied character set or null. */
    private static void character(TokenCursor c, Spec s, String national) {
        if (c.acceptWord("VARYING")) {
            s.base("varchar");
        } else {
            s.base("char");
        }
        s.length(c).charset = national;
    }

    /** {@code ('a','b',...)}: the labels unquoted, trailing spaces removed as the server does. */
    private static List<String> labels(TokenCursor c) {
        c.expectSymbol("(");
        List<String> labels = new ArrayList<>();
        do {
            labels.add(stripTrailingSpaces(string(c)));
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        return labels;
    }

    private static String stripTrailingSpaces(String label) {
        int end = label.length();
        while (end > 0 && label.charAt(end - 1) == ' ') {
            end--;
        }
        return label.substring(0, end);
    }

    /**
     * A string literal: an optional character set introducer ({@code _latin1'x'}), then one or more
     * adjacent strings, which concatenate.
     */
    static String string(TokenCursor c) {
        if (c.peek().kind() == Kind.WORD
                && c.peek().text().startsWith("_")
                && c.peek(1).kind() == Kind.STRING) {
            c.next();
        }
        if (c.peek().kind() != Kind.STRING) {
            throw c.unexpected("a string");
        }
        StringBuilder text = new StringBuilder(c.next().text());
        while (c.peek().kind() == Kind.STRING) {
            text.append(c.next().text());
        }
        return text.toString();
    }

    /**
     * Skips a DEFAULT or ON UPDATE value: a literal, a function call, a parenthesized expression,
     * and operands joined by operators.
     */
    static void skipValue(TokenCursor c) {
        do {
            while (c.isSymbol("-") || c.isSymbol("+") || c.isSymbol("~") || c.isSymbol("!")) {
                c.next();
            }
            operand(c);
        } while (acceptOperator(c));
    }

    private static final List<String> OPERATORS =
            List.of("+", "-", "*", "/", "%", "||", "|", "&", "^", "<<", ">>");

    private static boolean acceptOperator(TokenCursor c) {
        for (String operator : OPERATORS) {
            if (c.acceptSymbol(operator)) {
                return true;
            }
        }
        return false;
    }

    private static void operand(TokenCursor c) {
        SqlToken token = c.peek();
        if (token.isSymbol("(")) {
            c.skipParenthesized();
        } else if (token.kind() == Kind.STRING) {
            string(c);
        } else if (token.kind() == Kind.NUMBER) {
            c.next();
        } else if (token.kind() == Kind.WORD
                && token.text().startsWith("_")
                && c.peek(1).kind() == Kind.STRING) {
            string(c);
        } else if (token.kind() == Kind.WORD
                && (token.isWord("DATE") || token.isWord("TIME") || token.isWord("TIMESTAMP"))
                && c.peek(1).kind() == Kind.STRING) {
            c.next();
            c.next();
        } else if (token.isIdentifier()) {
            c.next();
            while (c.acceptSymbol(".")) {
                c.identifier();
            }
            if (c.isSymbol("(")) {
                c.skipParenthesized();
            }
        } else {
            throw c.unexpected("a value");
        }
    }

    /**
     * Skips {@code table [(columns)] [MATCH ...] [ON {DELETE | UPDATE} action]...} after
     * REFERENCES.
     */
    static void skipReferences(TokenCursor c) {
        c.identifier();
        if (c.acceptSymbol(".")) {
            c.identifier();
        }
        if (c.isSymbol("(")) {
            c.skipParenthesized();
        }
        if (c.acceptWord("MATCH")) {
            c.identifier();
        }
        while (c.isWord("ON", "DELETE") || c.isWord("ON", "UPDATE")) {
            c.next();
            c.next();
            if (!c.acceptWord("RESTRICT")
                    && !c.acceptWord("CASCADE")
                    && !c.acceptWord("SET", "NULL")
                    && !c.acceptWord("SET", "DEFAULT")
                    && !c.acceptWord("NO", "ACTION")) {
                throw c.unexpected("a referential action");
            }
        }
    }

    /** The type being parsed; parameters are read where the type allows them. */
    private static final class Spec {
        String base;
        Integer length;
        Integer scale;
        List<String> labels = List.of();
        boolean unsigned;
        String charset;

        Spec base(String name) {
            base = name;
            return this;
        }

        /** An optional {@code (n)}. */
        Spec length(TokenCursor c) {
            if (c.acceptSymbol("(")) {
                length = number(c);
                c.expectSymbol(")");
            }
            return this;
        }

        /** An optional {@code (m)} or {@code (m,d)}. */
        void precision(TokenCursor c) {
            if (c.acceptSymbol("(")) {
                length = number(c);
                if (c.acceptSymbol(",")) {
                    scale = number(c);
                }
                c.expectSymbol(")");
            }
        }

        private static int number(TokenCursor c) {
            SqlToken token = c.peek();
            if (token.kind() != Kind.NUMBER) {
                throw c.unexpected("a number");
            }
            c.next();
            try {
                return Integer.parseInt(token.text());
            } catch (NumberFormatException e) {
                throw c.unsupported("type parameter is not an int: value=" + token.text());
            }
        }
    }
}
