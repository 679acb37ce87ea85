package io.changegrid.fetchers.mysql;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.TemporalText;
import io.changegrid.fetchers.mysql.schema.MySqlColumnTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Every MariaDB 10.11 column type the fetcher carries, each with its edge values, and how to
 * compare a value read at the source with the value the fetcher published: the source is asked for
 * a canonical text of the column (its bytes in hex in its own character set, its number as text,
 * its epoch seconds, ...), and the published value is checked against that text, so a difference in
 * any byte, bit or digit shows.
 *
 * <p>The defects of issue 16 each have their case: {@code COMPRESSED} columns ({@code c_*_z}),
 * {@code UUID}/{@code INET4}/{@code INET6}, ENUM/SET labels with a 4-byte character read from the
 * start snapshot ({@code c_enum}, {@code c_set}), {@link #FLT_MAX} ({@code c_float}), an invalid
 * ENUM value ({@code c_enum_lax}), the zero TIMESTAMP ({@code c_timestamp}) and a byte cp1251
 * leaves undefined, 0x98 ({@code c_cp1251}). Shared, as the fetchers-mysql test jar, with appliers'
 * {@code TypeMatrixPipelineIT}, which drives it through a relay into every target.
 */
public final class MariaDbTypeMatrix {

    /** How a column's source text and published value are compared. */
    public enum Check {
        /** Integers and DECIMAL: the server's text is the value's plain text. */
        NUMBER("CAST(%s AS CHAR)"),
        /** FLOAT: widened to DOUBLE on both sides, which is exact. */
        FLOAT("CAST(CAST(%s AS DOUBLE) AS CHAR)"),
        /** DOUBLE: the server's shortest text parses to the same double (-0 prints as 0). */
        DOUBLE("CAST(%s AS CHAR)"),
        /** YEAR: 0 prints as 0000. */
        YEAR("CAST(%s AS CHAR)"),
        /** BIT(n) as an unsigned number. */
        BITS("CAST(CAST(%s AS UNSIGNED) AS CHAR)"),
        DATE("CAST(%s AS CHAR)"),
        TIME("CAST(%s AS CHAR)"),
        DATETIME("CAST(%s AS CHAR)"),
        /** TIMESTAMP as epoch seconds with the fraction: independent of time zones. */
        TIMESTAMP("CAST(UNIX_TIMESTAMP(%s) AS CHAR)"),
        /** Character columns: the bytes in the column's own character set. */
        CHARS("HEX(%s)"),
        /** Binary columns: the bytes. */
        BYTES("HEX(%s)"),
        /** GEOMETRY: the stored form, SRID (little-endian) then WKB. */
        GEOMETRY("HEX(%s)"),
        /** UUID, INET4, INET6: the server's own text. */
        TEXT("CAST(%s AS CHAR)");

        private final String sourceExpression;

        Check(String sourceExpression) {
            this.sourceExpression = sourceExpression;
        }

        public String sourceExpression(String column) {
            return String.format(sourceExpression, "`" + column + "`");
        }

        /** Whether the published value is the one the source's text describes. */
        public boolean matches(String source, Object value, Column column) {
            if (source == null || value == null) {
                return source == null && value == null;
            }
            return switch (this) {
                case NUMBER ->
                        source.equals(
                                value instanceof BigDecimal decimal
                                        ? decimal.toPlainString()
                                        : value.toString());
                case FLOAT -> Double.parseDouble(source) == ((Float) value).doubleValue();
                case DOUBLE -> Double.parseDouble(source) == (Double) value;
                case YEAR -> Long.parseLong(source) == (Long) value;
                case BITS -> new BigInteger(source).equals(unsigned((BitSet) value));
                case DATE -> SqlDate.parse(source).equals(value);
                case TIME -> TemporalText.parseTime(source).equals(value);
                case DATETIME -> SqlDateTime.parse(source).equals(value);
                case TIMESTAMP ->
                        new BigDecimal(source).compareTo(epochSeconds((Instant) value)) == 0;
                case CHARS ->
                        source.equalsIgnoreCase(
                                HexFormat.of()
                                        .formatHex(
                                                ((String) value)
                                                        .getBytes(
                                                                MySqlColumnTypes.charset(column))));
                case BYTES -> source.equalsIgnoreCase(HexFormat.of().formatHex((byte[]) value));
                case GEOMETRY ->
                        source.equalsIgnoreCase(HexFormat.of().formatHex(stored((Geometry) value)));
                case TEXT -> source.equals(value);
            };
        }

        private static BigInteger unsigned(BitSet bits) {
            long[] words = bits.toLongArray();
            return new BigInteger(Long.toUnsignedString(words.length == 0 ? 0 : words[0]));
        }

        private static BigDecimal epochSeconds(Instant instant) {
            return BigDecimal.valueOf(instant.getEpochSecond())
                    .add(BigDecimal.valueOf(instant.getNano(), 9));
        }

        private static byte[] stored(Geometry geometry) {
            return ByteBuffer.allocate(4 + geometry.wkb().length)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(geometry.srid())
                    .put(geometry.wkb())
                    .array();
        }
    }

    /**
     * One column of the matrix.
     *
     * @param name the column name
     * @param declaration its type as declared in CREATE TABLE
     * @param check how source and published values are compared
     * @param edges SQL expressions of its edge values; NULL is added to every column
     */
    public record TypeCase(String name, String declaration, Check check, List<String> edges) {

        /** The edge values and NULL. */
        public List<String> values() {
            List<String> all = new ArrayList<>(edges);
            all.add("NULL");
            return all;
        }
    }

    /** FLT_MAX exactly: a float's own shortest text, 3.4028235E38, is above it. */
    public static final String FLT_MAX = "3.4028234663852886e38";

    /**
     * A value not among its ENUM's labels: a non-strict source stores it as the empty value, index
     * 0, which a strict target refuses.
     */
    public static final String INVALID_ENUM = "'not a label'";

    public static final List<TypeCase> CASES =
            List.of(
                    new TypeCase("c_tinyint", "TINYINT", Check.NUMBER, List.of("-128", "127", "0")),
                    new TypeCase(
                            "c_tinyint_u",
                            "TINYINT UNSIGNED",
                            Check.NUMBER,
                            List.of("0", "255", "128")),
                    new TypeCase(
                            "c_smallint", "SMALLINT", Check.NUMBER, List.of("-32768", "32767")),
                    new TypeCase(
                            "c_smallint_u",
                            "SMALLINT UNSIGNED",
                            Check.NUMBER,
                            List.of("0", "65535")),
                    new TypeCase(
                            "c_mediumint",
                            "MEDIUMINT",
                            Check.NUMBER,
                            List.of("-8388608", "8388607")),
                    new TypeCase(
                            "c_mediumint_u",
                            "MEDIUMINT UNSIGNED",
                            Check.NUMBER,
                            List.of("0", "16777215")),
                    new TypeCase(
                            "c_int", "INT", Check.NUMBER, List.of("-2147483648", "2147483647")),
                    new TypeCase(
                            "c_int_u", "INT UNSIGNED", Check.NUMBER, List.of("0", "4294967295")),
                    new TypeCase(
                            "c_bigint",
                            "BIGINT",
                            Check.NUMBER,
                            List.of("-9223372036854775808", "9223372036854775807")),
                    new TypeCase(
                            "c_bigint_u",
                            "BIGINT UNSIGNED",
                            Check.NUMBER,
                            List.of("0", "18446744073709551615", "9223372036854775808")),
                    new TypeCase(
                            "c_decimal",
                            "DECIMAL(65,30)",
                            Check.NUMBER,
                            List.of(
                                    "-99999999999999999999999999999999999.999999999999999999999999999999",
                                    "99999999999999999999999999999999999.999999999999999999999999999999",
                                    "0.000000000000000000000000000001")),
                    new TypeCase(
                            "c_decimal0",
                            "DECIMAL(10,0)",
                            Check.NUMBER,
                            List.of("-9999999999", "9999999999", "0")),
                    new TypeCase(
                            "c_float",
                            "FLOAT",
                            Check.FLOAT,
                            List.of(
                                    "3.40282e38",
                                    "-3.40282e38",
                                    "-1.17549e-38",
                                    "1e-45",
                                    "0",
                                    FLT_MAX,
                                    "-" + FLT_MAX)),
                    new TypeCase(
                            "c_double",
                            "DOUBLE",
                            Check.DOUBLE,
                            List.of("1.7976931348623157e308", "-4.9e-324", "-0.0", "0.1")),
                    new TypeCase("c_bit1", "BIT(1)", Check.BITS, List.of("b'0'", "b'1'")),
                    new TypeCase(
                            "c_bit64",
                            "BIT(64)",
                            Check.BITS,
                            List.of("x'8000000000000001'", "x'ffffffffffffffff'", "b'0'")),
                    new TypeCase(
                            "c_date",
                            "DATE",
                            Check.DATE,
                            List.of(
                                    "'0000-00-00'",
                                    "'9999-12-31'",
                                    "'2024-00-15'",
                                    "'1000-01-01'")),
                    new TypeCase(
                            "c_time",
                            "TIME(6)",
                            Check.TIME,
                            List.of(
                                    "'-838:59:59'",
                                    "'838:59:59'",
                                    "'-00:00:00.000001'",
                                    "'00:00:00'")),
                    new TypeCase(
                            "c_datetime",
                            "DATETIME(6)",
                            Check.DATETIME,
                            List.of(
                                    "'0000-00-00 00:00:00'",
                                    "'9999-12-31 23:59:59.999999'",
                                    "'2024-02-00 12:00:00.5'")),
                    new TypeCase(
                            "c_timestamp",
                            "TIMESTAMP(6) NULL",
                            Check.TIMESTAMP,
                            List.of(
                                    "'1970-01-01 00:00:01'",
                                    "'2038-01-19 03:14:07.999999'",
                                    "'0000-00-00 00:00:00'")),
                    new TypeCase("c_year", "YEAR", Check.YEAR, List.of("0", "1901", "2155")),
                    new TypeCase(
                            "c_char",
                            "CHAR(10) CHARACTER SET utf8mb4",
                            Check.CHARS,
                            List.of("''", "'\uD83D\uDE00\u4e2d\u6587'", "'x'")),
                    new TypeCase(
                            "c_latin1",
                            "VARCHAR(100) CHARACTER SET latin1",
                            Check.CHARS,
                            List.of("'caf\u00e9 \u00ff\u00c0'", "_latin1 x'818D8F909D'", "''")),
                    new TypeCase(
                            "c_cp1251",
                            "VARCHAR(20) CHARACTER SET cp1251",
                            Check.CHARS,
                            List.of(
                                    "_cp1251 x'98'",
                                    "_cp1251 x'C0E1983F'",
                                    "'\u041f\u0440\u0438\u0432\u0435\u0442'")),
                    new TypeCase(
                            "c_text",
                            "MEDIUMTEXT CHARACTER SET utf8mb4",
                            Check.CHARS,
                            List.of(
                                    "'\uD83D\uDE00 emoji'",
                                    "REPEAT('\u00e9t\u00e9 ', 20000)",
                                    "''")),
                    new TypeCase(
                            "c_binary",
                            "BINARY(4)",
                            Check.BYTES,
                            List.of("x'01'", "x'00000000'", "x'ffffffff'")),
                    new TypeCase(
                            "c_varbinary",
                            "VARBINARY(100)",
                            Check.BYTES,
                            List.of("x''", "x'00ff'")),
                    new TypeCase(
                            "c_blob",
                            "LONGBLOB",
                            Check.BYTES,
                            List.of("x'00'", "REPEAT(x'ab00', 40000)", "x''")),
                    new TypeCase(
                            "c_enum",
                            "ENUM('', 'small', '\uD83D\uDE00large', 'a?b') CHARACTER SET utf8mb4",
                            Check.CHARS,
                            List.of("''", "'small'", "'\uD83D\uDE00large'", "'a?b'")),
                    new TypeCase(
                            "c_set",
                            "SET('a', 'b\uD83D\uDE00', 'c') CHARACTER SET utf8mb4",
                            Check.CHARS,
                            List.of("''", "'a,b\uD83D\uDE00,c'", "'b\uD83D\uDE00'")),
                    new TypeCase(
                            "c_enum_lax",
                            "ENUM('x', 'y') CHARACTER SET utf8mb4",
                            Check.CHARS,
                            List.of("'x'", INVALID_ENUM)),
                    new TypeCase(
                            "c_json",
                            "JSON",
                            Check.CHARS,
                            List.of("'{\"a\": [1, 2.5, null, \"\uD83D\uDE00\"]}'", "'[]'")),
                    new TypeCase(
                            "c_geometry",
                            "GEOMETRY",
                            Check.GEOMETRY,
                            List.of(
                                    "ST_GeomFromText('POINT(1 2)', 4326)",
                                    "ST_GeomFromText('LINESTRING(0 0, -122.5 37.25)')")),
                    new TypeCase(
                            "c_uuid",
                            "UUID",
                            Check.TEXT,
                            List.of(
                                    "'00000000-0000-0000-0000-000000000000'",
                                    "'ffffffff-ffff-ffff-ffff-ffffffffffff'",
                                    "'01234567-89ab-4def-8123-456789abcdef'",
                                    "'01234567-89ab-1def-0123-456789abcd00'",
                                    "'01234567-89ab-1def-8123-456789abcdef'",
                                    "UUID()")),
                    new TypeCase(
                            "c_inet4",
                            "INET4",
                            Check.TEXT,
                            List.of("'0.0.0.0'", "'255.255.255.255'", "'1.2.3.0'")),
                    new TypeCase(
                            "c_inet6",
                            "INET6",
                            Check.TEXT,
                            List.of(
                                    "'::'",
                                    "'::ffff:1.2.3.4'",
                                    "'2001:db8::1'",
                                    "'1:0:0:1:0:0:0:0'",
                                    "'fe80::1:2'",
                                    "'::1.2.3.4'",
                                    "'1:0:1:1:1:1:1:1'")),
                    new TypeCase(
                            "c_varchar_z",
                            "VARCHAR(500) CHARACTER SET utf8mb4 COMPRESSED",
                            Check.CHARS,
                            List.of("'short'", "REPEAT('\uD83D\uDE00abc', 100)", "''")),
                    new TypeCase(
                            "c_text_z",
                            "TEXT CHARACTER SET utf8mb4 COMPRESSED",
                            Check.CHARS,
                            List.of("REPEAT('xyz', 1000)", "'tiny'")),
                    new TypeCase(
                            "c_blob_z",
                            "BLOB COMPRESSED",
                            Check.BYTES,
                            List.of("REPEAT(x'00ff', 500)", "x'01'", "x''")),
                    new TypeCase(
                            "c_varbinary_z",
                            "VARBINARY(300) COMPRESSED",
                            Check.BYTES,
                            List.of("REPEAT(x'ab', 250)", "x'00'")));

    private MariaDbTypeMatrix() {}

    /** CREATE TABLE for the matrix: an INT key, then one column per case. */
    public static String createTable(String table) {
        StringBuilder sql =
                new StringBuilder("CREATE TABLE ").append(table).append(" (id INT PRIMARY KEY");
        for (TypeCase c : CASES) {
            sql.append(", `").append(c.name()).append("` ").append(c.declaration());
        }
        return sql.append(") CHARACTER SET utf8mb4").toString();
    }

    /** The number of rows that give every case each of its values at least once. */
    public static int rows() {
        return CASES.stream().mapToInt(c -> c.values().size()).max().orElseThrow();
    }

    /** Value {@code i} of a case, cycling through its values. */
    public static String value(TypeCase c, int i) {
        List<String> values = c.values();
        return values.get(Math.floorMod(i, values.size()));
    }

    /** The source query: the key, then each case's canonical text. */
    public static String selectCanonical(String table) {
        StringBuilder sql = new StringBuilder("SELECT id");
        for (TypeCase c : CASES) {
            sql.append(", ").append(c.check().sourceExpression(c.name()));
        }
        return sql.append(" FROM ").append(table).append(" ORDER BY id").toString();
    }

    public static boolean sameValue(Object a, Object b) {
        return Objects.deepEquals(a, b);
    }
}
