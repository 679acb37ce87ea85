package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.LosslessSingleByteCharset;
import io.changegrid.events.value.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Maps MySQL and MariaDB column declarations to {@link Column}s, and reads back what a fetcher
 * needs to decode a column's values: its character set and its ENUM or SET labels.
 *
 * <p>The canonical {@link Column#sourceType()} is {@code COLUMN_TYPE} as information_schema shows
 * it ({@code int(11)}, {@code int(10) unsigned}, {@code decimal(65,30)}, {@code enum('a','b')},
 * {@code bit(64)}, {@code datetime(6)}), and for character columns (CHAR, VARCHAR, the TEXTs, ENUM,
 * SET) followed by {@code character set <charset>}, e.g. {@code varchar(100) character set latin1}.
 * A schema read from information_schema and one built by parsing DDL are therefore equal.
 *
 * <p>Value types, as in {@code docs/event-format.md}: integers and YEAR are INT64 except BIGINT
 * UNSIGNED (UINT64); FLOAT is FLOAT32, DOUBLE FLOAT64; DECIMAL is DECIMAL; BIT(n) is BITS of width
 * n; DATE, TIME, DATETIME, TIMESTAMP map to their namesakes; character columns are STRING (BYTES in
 * the {@code binary} character set, except ENUM and SET, whose values are labels); BINARY,
 * VARBINARY and the BLOBs are BYTES; JSON is JSON; the geometry types are GEOMETRY; MariaDB's UUID,
 * INET4 and INET6 are STRING. MariaDB's JSON is an alias of {@code longtext} (with a {@code
 * json_valid} check) and so arrives as STRING.
 *
 * <p>Stateless; thread-safe.
 */
public final class MySqlColumnTypes {

    private MySqlColumnTypes() {}

    /**
     * The column for one row of information_schema.COLUMNS, or for one parsed definition.
     *
     * @param name the column name
     * @param columnType {@code COLUMN_TYPE}, e.g. {@code int(10) unsigned}; a trailing {@code
     *     character set cs} is accepted in place of {@code charset}
     * @param charset {@code CHARACTER_SET_NAME}; required for character columns, ignored otherwise;
     *     {@code utf8} is read as {@code utf8mb3}, as servers since MariaDB 10.6 and MySQL 8.0.30
     *     show it
     * @param nullable whether {@code IS_NULLABLE} is {@code YES}
     * @throws IllegalArgumentException naming the column and type when the type is not one of
     *     MySQL's or MariaDB's, or a character column has no character set
     */
    public static Column column(String name, String columnType, String charset, boolean nullable) {
        MySqlColumnType type;
        try {
            type = MySqlColumnType.parse(columnType);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "malformed column type: column=" + name + ", type=" + columnType, e);
        }
        if (type.isCharacter()) {
            String cs = charset != null ? charset : type.charset();
            if (cs == null) {
                throw new IllegalArgumentException(
                        "character column without character set: column="
                                + name
                                + ", type="
                                + columnType);
            }
            type = type.withCharset(MySqlCharsets.canonical(cs, "utf8mb3"));
        } else {
            type = type.withCharset(null);
        }
        ValueType valueType = valueType(name, type);
        int width = valueType == ValueType.BITS ? bitWidth(type) : 0;
        return new Column(name, valueType, type.sourceType(), nullable, width);
    }

    /**
     * The MySQL character set of a character column, e.g. {@code utf8mb4}; empty for other columns.
     */
    public static Optional<String> characterSet(Column column) {
        return Optional.ofNullable(MySqlColumnType.parse(column.sourceType()).charset());
    }

    /**
     * The Java charset that decodes a character column's bytes: UTF-8 for {@code utf8mb3} and
     * {@code utf8mb4}, the lossless {@link MySqlLatin1Charset} for {@code latin1}, US-ASCII for
     * {@code ascii}, UTF-16BE for {@code ucs2} and {@code utf16}, UTF-16LE for {@code utf16le},
     * UTF-32BE for {@code utf32}, ISO-8859-1 (one char per byte) for {@code binary}, and the JDK's
     * namesake for the rest.
     *
     * @throws IllegalArgumentException naming the column when it is not a character column or its
     *     character set has no Java decoder
     */
    public static Charset charset(Column column) {
        String charset =
                characterSet(column)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "not a character column: column="
                                                        + column.name()
                                                        + ", type="
                                                        + column.sourceType()));
        try {
            return MySqlCharsets.javaCharset(charset);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ", column=" + column.name(), e);
        }
    }

    /**
     * Decodes a character column's bytes with the charset {@link #charset(Column)} gave: lossless
     * for every single-byte character set (MySQL's {@code latin1}, see {@link MySqlLatin1Charset};
     * {@code binary}; the others, see {@link LosslessSingleByteCharset}); in a multi-byte character
     * set a byte sequence it does not define is refused rather than turned into U+FFFD.
     *
     * @throws IllegalArgumentException naming the character set and where the bytes stop being
     *     valid
     */
    public static String decode(Charset charset, byte[] bytes) {
        if (charset == MySqlLatin1Charset.INSTANCE) {
            return MySqlLatin1Charset.decode(bytes);
        }
        if (charset instanceof LosslessSingleByteCharset singleByte) {
            return singleByte.decode(bytes);
        }
        if (charset == StandardCharsets.ISO_8859_1) {
            return new String(bytes, charset);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(in)
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(
                    "bytes not defined in the column's character set: charset="
                            + charset.name()
                            + ", offset="
                            + in.position(),
                    e);
        }
    }

    /**
     * Whether the column is a MariaDB {@code COMPRESSED} column, whose binlog cells are compressed.
     */
    public static boolean isCompressed(Column column) {
        return MySqlColumnType.parse(column.sourceType()).compressed();
    }

    /**
     * The labels of an ENUM column in definition order; value {@code i} (1-based) in a row event is
     * label {@code i - 1}.
     *
     * @throws IllegalArgumentException naming the column when it is not an ENUM
     */
    public static List<String> enumLabels(Column column) {
        return labels(column, "enum");
    }

    /**
     * The labels of a SET column in definition order; bit {@code i} of a row event's value is label
     * {@code i}.
     *
     * @throws IllegalArgumentException naming the column when it is not a SET
     */
    public static List<String> setLabels(Column column) {
        return labels(column, "set");
    }

    private static List<String> labels(Column column, String base) {
        MySqlColumnType type = MySqlColumnType.parse(column.sourceType());
        if (!type.base().equals(base)) {
            throw new IllegalArgumentException(
                    "not an "
                            + base
                            + " column: column="
                            + column.name()
                            + ", type="
                            + column.sourceType());
        }
        return type.labels();
    }

    private static ValueType valueType(String name, MySqlColumnType type) {
        return switch (type.base()) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "year" -> ValueType.INT64;
            case "bigint" -> type.unsigned() ? ValueType.UINT64 : ValueType.INT64;
            case "float" -> ValueType.FLOAT32;
            case "double", "real" -> ValueType.FLOAT64;
            case "decimal", "numeric" -> ValueType.DECIMAL;
            case "bit" -> ValueType.BITS;
            case "date" -> ValueType.DATE;
            case "time" -> ValueType.TIME;
            case "datetime" -> ValueType.DATETIME;
            case "timestamp" -> ValueType.TIMESTAMP;
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext" ->
                    "binary".equals(type.charset()) ? ValueType.BYTES : ValueType.STRING;
            case "enum", "set" -> ValueType.STRING;
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" ->
                    ValueType.BYTES;
            case "json" -> ValueType.JSON;
            case "geometry",
                    "point",
                    "linestring",
                    "polygon",
                    "multipoint",
                    "multilinestring",
                    "multipolygon",
                    "geometrycollection",
                    "geomcollection" ->
                    ValueType.GEOMETRY;
            case "uuid", "inet4", "inet6" -> ValueType.STRING;
            default ->
                    throw new IllegalArgumentException(
                            "unsupported column type: column="
                                    + name
                                    + ", type="
                                    + type.columnType());
        };
    }

    /** BIT without a width is BIT(1), as the server itself shows it. */
    private static int bitWidth(MySqlColumnType type) {
        return type.params() == null ? 1 : type.length();
    }
}
