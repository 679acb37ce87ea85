package io.changegrid.fetchers.mysql.schema;

import java.util.Map;

/**
 * Turns a declared {@link TypeSpec} into the canonical type the server itself would show in
 * information_schema, the way the server does: default display widths ({@code int} is {@code
 * int(11)} on MariaDB), default lengths and precisions ({@code char} is {@code char(1)}, {@code
 * decimal} is {@code decimal(10,0)}), {@code float(p)} with p over 24 as {@code double}, {@code
 * TEXT(n)} and {@code BLOB(n)} sized to the smallest type that holds n characters, character types
 * in the {@code binary} character set as their binary twins ({@code varchar} as {@code varbinary}),
 * and MariaDB's JSON as {@code longtext} in {@code utf8mb4}.
 *
 * <p>A character column takes its declared character set, else its collation's, else the table's
 * default. Stateless.
 */
final class ColumnTypeRenderer {

    /** MariaDB's default display widths: {signed, unsigned}. */
    private static final Map<String, int[]> DISPLAY_WIDTHS =
            Map.of(
                    "tinyint", new int[] {4, 3},
                    "smallint", new int[] {6, 5},
                    "mediumint", new int[] {9, 8},
                    "int", new int[] {11, 10},
                    "bigint", new int[] {20, 20});

    /** The binary type each character type becomes in the {@code binary} character set. */
    private static final Map<String, String> BINARY_TWINS =
            Map.of(
                    "char", "binary",
                    "varchar", "varbinary",
                    "tinytext", "tinyblob",
                    "text", "blob",
                    "mediumtext", "mediumblob",
                    "longtext", "longblob");

    private ColumnTypeRenderer() {}

    /**
     * The canonical type of a declaration in a table whose default character set is {@code
     * tableCharset}.
     *
     * @throws IllegalArgumentException for an unknown character set or collation
     */
    static MySqlColumnType render(TypeSpec t, String tableCharset, ServerDialect dialect) {
        boolean mySql = dialect.flavor() == ServerDialect.Flavor.MYSQL;
        String base = t.base();
        return switch (base) {
            case "tinyint", "smallint", "mediumint", "int", "bigint" -> integer(t, mySql);
            case "decimal" ->
                    numeric(
                            t,
                            "decimal",
                            (t.length() == null ? 10 : t.length())
                                    + ","
                                    + (t.scale() == null ? 0 : t.scale()));
            case "float", "double" -> floating(t);
            case "bit" -> plain("bit", String.valueOf(positiveOr(t.length(), 1)));
            case "date",
                    "geometry",
                    "point",
                    "linestring",
                    "polygon",
                    "multipoint",
                    "multilinestring",
                    "multipolygon",
                    "geometrycollection",
                    "uuid",
                    "inet4",
                    "inet6" ->
                    plain(base, null);
            case "tinyblob", "mediumblob", "longblob" -> bytes(t, base, null);
            case "time", "datetime", "timestamp" ->
                    plain(base, positiveOr(t.length(), 0) == 0 ? null : String.valueOf(t.length()));
            case "year" ->
                    mySql
                            ? plain("year", null)
                            : plain("year", t.length() != null && t.length() == 2 ? "2" : "4");
            case "binary" ->
                    bytes(t, "binary", String.valueOf(t.length() == null ? 1 : t.length()));
            case "varbinary" -> bytes(t, "varbinary", String.valueOf(required(t)));
            case "blob" -> bytes(t, t.length() == null ? "blob" : sized(t.length(), "blob"), null);
            case "json" ->
                    mySql
                            ? plain("json", null)
                            : new MySqlColumnType("longtext", null, false, false, false, "utf8mb4");
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set" ->
                    character(t, charsetOf(t, tableCharset, dialect));
            default -> throw new IllegalArgumentException("unknown data type: type=" + base);
        };
    }

    /**
     * The character set of a character column: declared, else its collation's, else the table's.
     */
    static String charsetOf(TypeSpec t, String tableCharset, ServerDialect dialect) {
        if (t.charset() != null) {
            return t.charset().equalsIgnoreCase("default")
                    ? tableCharset
                    : dialect.charset(t.charset());
        }
        if (t.collation() != null) {
            return dialect.charsetOfCollation(t.collation()).orElse(tableCharset);
        }
        return tableCharset;
    }

    private static MySqlColumnType character(TypeSpec t, String charset) {
        boolean binary = charset.equals("binary");
        String base = t.base();
        String params = null;
        switch (base) {
            case "char" -> params = String.valueOf(t.length() == null ? 1 : t.length());
            case "varchar" -> params = String.valueOf(required(t));
            case "enum", "set" -> params = MySqlColumnType.quoteLabels(t.labels());
            case "text" -> {
                if (t.length() != null) {
                    base =
                            sized(
                                    (long) t.length() * MySqlCharsets.maxBytesPerChar(charset),
                                    "text");
                }
            }
            default -> {}
        }
        if (binary && BINARY_TWINS.containsKey(base)) {
            return bytes(t, BINARY_TWINS.get(base), params);
        }
        return new MySqlColumnType(base, params, false, false, t.compressed(), charset);
    }

    /**
     * The smallest TEXT (or BLOB) type that holds {@code bytes}: {@code tiny} up to 255, plain up
     * to 65,535, {@code medium} up to 16,777,215, else {@code long}.
     */
    static String sized(long bytes, String kind) {
        if (bytes <= 0xFF) {
            return "tiny" + kind;
        } else if (bytes <= 0xFFFF) {
            return kind;
        } else if (bytes <= 0xFF_FFFF) {
            return "medium" + kind;
        }
        return "long" + kind;
    }

    /** The most bytes a TEXT or BLOB type holds. */
    static long capacity(String base) {
        return switch (base) {
            case "tinytext", "tinyblob" -> 0xFFL;
            case "text", "blob" -> 0xFFFFL;
            case "mediumtext", "mediumblob" -> 0xFF_FFFFL;
            default -> 0xFFFF_FFFFL;
        };
    }

    private static MySqlColumnType integer(TypeSpec t, boolean mySql) {
        int width = positiveOr(t.length(), DISPLAY_WIDTHS.get(t.base())[t.unsigned() ? 1 : 0]);
        boolean showWidth =
                !mySql
                        || t.zerofill()
                        || (t.base().equals("tinyint") && Integer.valueOf(1).equals(t.length()));
        return new MySqlColumnType(
                t.base(),
                showWidth ? String.valueOf(width) : null,
                t.unsigned(),
                t.zerofill(),
                false,
                null);
    }

    /** FLOAT(p) is FLOAT up to 24 bits of precision and DOUBLE above; (m,d) is kept. */
    private static MySqlColumnType floating(TypeSpec t) {
        if (t.scale() != null) {
            return numeric(t, t.base(), t.length() + "," + t.scale());
        }
        String base =
                t.base().equals("float") && t.length() != null && t.length() > 24
                        ? "double"
                        : t.base();
        return numeric(t, base, null);
    }

    private static MySqlColumnType numeric(TypeSpec t, String base, String params) {
        return new MySqlColumnType(base, params, t.unsigned(), t.zerofill(), false, null);
    }

    private static MySqlColumnType plain(String base, String params) {
        return new MySqlColumnType(base, params, false, false, false, null);
    }

    /** A binary string type, which MariaDB can store compressed. */
    private static MySqlColumnType bytes(TypeSpec t, String base, String params) {
        return new MySqlColumnType(base, params, false, false, t.compressed(), null);
    }

    private static int positiveOr(Integer value, int otherwise) {
        return value == null || value <= 0 ? otherwise : value;
    }

    private static int required(TypeSpec t) {
        if (t.length() == null) {
            throw new IllegalArgumentException("type needs a length: type=" + t.base());
        }
        return t.length();
    }
}
