package io.changegrid.events;

import static io.changegrid.events.value.ValueType.*;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * One table with a column of every MySQL/MariaDB type (plus the Oracle/PostgreSQL-only types), and
 * rows of edge values for it: minimums, maximums, zero dates, 4-byte UTF-8, empty values, NULLs.
 */
public final class MySqlTypeSamples {

    public static final List<Column> COLUMNS =
            List.of(
                    new Column("id", INT64, "int", false, 0),
                    col("c_tinyint", INT64, "tinyint"),
                    col("c_tinyint_u", INT64, "tinyint unsigned"),
                    col("c_smallint", INT64, "smallint"),
                    col("c_mediumint", INT64, "mediumint"),
                    col("c_mediumint_u", INT64, "mediumint unsigned"),
                    col("c_int", INT64, "int"),
                    col("c_int_u", INT64, "int unsigned"),
                    col("c_bigint", INT64, "bigint"),
                    col("c_bigint_u", UINT64, "bigint unsigned"),
                    col("c_decimal", DECIMAL, "decimal(65,30)"),
                    col("c_decimal0", DECIMAL, "decimal(10,0)"),
                    col("c_float", FLOAT32, "float"),
                    col("c_double", FLOAT64, "double"),
                    new Column("c_bit1", BITS, "bit(1)", true, 1),
                    new Column("c_bit64", BITS, "bit(64)", true, 64),
                    col("c_date", DATE, "date"),
                    col("c_time", TIME, "time(6)"),
                    col("c_datetime", DATETIME, "datetime(6)"),
                    col("c_timestamp", TIMESTAMP, "timestamp(6)"),
                    col("c_year", INT64, "year"),
                    col("c_char", STRING, "char(10) character set utf8mb4"),
                    col("c_varchar_latin1", STRING, "varchar(100) character set latin1"),
                    col("c_text", STRING, "mediumtext character set utf8mb4"),
                    col("c_binary", BYTES, "binary(4)"),
                    col("c_varbinary", BYTES, "varbinary(100)"),
                    col("c_blob", BYTES, "longblob"),
                    col("c_enum", STRING, "enum('','small','large')"),
                    col("c_set", STRING, "set('a','b','c')"),
                    col("c_json", JSON, "json"),
                    col("c_geometry", GEOMETRY, "geometry"),
                    col("c_boolean", BOOLEAN, "boolean"),
                    col("c_timestamptz", TIMESTAMP_TZ, "timestamp with time zone"),
                    col("c_number", DECIMAL, "number"));

    private MySqlTypeSamples() {}

    private static Column col(String name, ValueType type, String sourceType) {
        return new Column(name, type, sourceType, true, 0);
    }

    /** Registers the all-types table in {@code registry}. */
    public static TableSchema register(SchemaRegistry registry) {
        return registry.register("shop", "all_types", COLUMNS, List.of("id"));
    }

    /** Rows of edge values, each with a distinct id. */
    public static List<Object[]> edgeRows() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(
                row(
                        1L,
                        -128L,
                        255L,
                        -32768L,
                        -8388608L,
                        16777215L,
                        (long) Integer.MIN_VALUE,
                        4294967295L,
                        Long.MIN_VALUE,
                        new BigInteger("18446744073709551615"),
                        new BigDecimal(
                                "-99999999999999999999999999999999999.999999999999999999999999999999"),
                        new BigDecimal("-9999999999"),
                        -Float.MAX_VALUE,
                        -Double.MAX_VALUE,
                        bits(0),
                        bits(0, 63),
                        SqlDate.ZERO,
                        Duration.parse("-PT838H59M59S"),
                        SqlDateTime.ZERO,
                        Instant.EPOCH /* MySQL's zero TIMESTAMP is 0 in the binlog */,
                        0L,
                        "",
                        "",
                        "",
                        new byte[4],
                        new byte[0],
                        new byte[0],
                        "",
                        "",
                        "{}",
                        new Geometry(0, point(0, 0)),
                        false,
                        OffsetDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(-18)),
                        new BigDecimal("1E+125")));
        rows.add(
                row(
                        2L,
                        127L,
                        0L,
                        32767L,
                        8388607L,
                        0L,
                        (long) Integer.MAX_VALUE,
                        0L,
                        Long.MAX_VALUE,
                        BigInteger.ZERO,
                        new BigDecimal(
                                "99999999999999999999999999999999999.999999999999999999999999999999"),
                        new BigDecimal("9999999999"),
                        Float.MAX_VALUE,
                        Double.MAX_VALUE,
                        bits(0, 0),
                        allBits(64),
                        new SqlDate(1000, 1, 1),
                        Duration.parse("PT838H59M59S"),
                        new SqlDateTime(new SqlDate(9999, 12, 31), 86_399_999_999_000L),
                        Instant.parse("2038-01-19T03:14:07.999999Z"),
                        2155L,
                        "0123456789",
                        "caf\u00e9 \u00ff\u00c0",
                        "\uD83D\uDE00 emoji \u4e2d\u6587 \u05e9\u05dc\u05d5\u05dd",
                        new byte[] {(byte) 0xFF, 0, 1, (byte) 0x80},
                        new byte[] {0, 0, 0},
                        randomBytes(70_000, 7),
                        "large",
                        "a,c",
                        "{\"a\": [1, 2.5, null, \"x\"]}",
                        new Geometry(4326, point(-122.4194, 37.7749)),
                        true,
                        OffsetDateTime.of(
                                9999, 12, 31, 23, 59, 59, 999_999_999, ZoneOffset.ofHours(18)),
                        new BigDecimal("-0.000000000000000000000000000000000000000001")));
        rows.add(
                row(
                        3L,
                        0L,
                        128L,
                        0L,
                        0L,
                        1L,
                        0L,
                        2147483648L,
                        0L,
                        new BigInteger("9223372036854775808"),
                        new BigDecimal("0.000000000000000000000000000001"),
                        BigDecimal.ZERO,
                        Float.MIN_VALUE,
                        -0.0d,
                        bits(),
                        bits(1, 31, 62),
                        new SqlDate(2024, 0, 15),
                        Duration.ofNanos(-1_000),
                        new SqlDateTime(new SqlDate(2024, 2, 0), 0),
                        Instant.parse("1970-01-01T00:00:01Z"),
                        1901L,
                        "  padded  ",
                        "plain ascii",
                        "x".repeat(20_000),
                        new byte[] {1, 2, 3, 4},
                        randomBytes(100, 3),
                        randomBytes(1, 5),
                        "small",
                        "",
                        "[]",
                        new Geometry(0, new byte[0]),
                        false,
                        OffsetDateTime.of(
                                2024,
                                2,
                                29,
                                12,
                                30,
                                0,
                                123_456_000,
                                ZoneOffset.ofHoursMinutes(5, 30)),
                        new BigDecimal("123.4500")));
        rows.add(
                row(
                        4L,
                        -1L,
                        1L,
                        -1L,
                        -1L,
                        1L,
                        -1L,
                        1L,
                        -1L,
                        BigInteger.ONE,
                        new BigDecimal("-0.500000000000000000000000000000"),
                        new BigDecimal("-1"),
                        Float.NaN,
                        Double.NEGATIVE_INFINITY,
                        bits(0),
                        bits(),
                        SqlDate.of(LocalDate.of(2024, 2, 29)),
                        Duration.ofHours(25).plusNanos(500_000),
                        SqlDateTime.of(LocalDateTime.of(1000, 1, 1, 0, 0)),
                        Instant.parse("2024-02-29T23:59:59.123456Z"),
                        2024L,
                        "\u0000nul",
                        "\u00e9",
                        "line1\nline2\ttab\"quote\\",
                        new byte[] {0, 0, 0, 0},
                        new byte[] {(byte) 0xC3, 0x28},
                        "\u00e9".getBytes(StandardCharsets.ISO_8859_1),
                        "",
                        "a,b,c",
                        "{\"k\": \"\u00fc\u00f1\u00ee\u00e7\u00f8d\u00e9\"}",
                        new Geometry(3857, point(1e9, -1e9)),
                        true,
                        OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                        new BigDecimal("-7E-3")));
        Object[] nulls = new Object[COLUMNS.size()];
        nulls[0] = 5L;
        rows.add(nulls);
        return rows;
    }

    private static Object[] row(Object... values) {
        if (values.length != COLUMNS.size()) {
            throw new IllegalArgumentException(
                    "sample row has "
                            + values.length
                            + " values for "
                            + COLUMNS.size()
                            + " columns");
        }
        return values;
    }

    private static BitSet bits(int... set) {
        BitSet bits = new BitSet();
        for (int i : set) {
            bits.set(i);
        }
        return bits;
    }

    private static BitSet allBits(int width) {
        BitSet bits = new BitSet(width);
        bits.set(0, width);
        return bits;
    }

    private static byte[] point(double x, double y) {
        return ByteBuffer.allocate(21)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) 1)
                .putInt(1)
                .putDouble(x)
                .putDouble(y)
                .array();
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new java.util.Random(seed).nextBytes(bytes);
        return bytes;
    }
}
