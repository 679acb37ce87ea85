package io.changegrid.events.value;

/**
 * The source-independent value types. Every source column type maps to exactly one of these, and
 * the mapping is lossless: a value read from a MySQL binlog, an Oracle redo record or a PostgreSQL
 * WAL record comes back out of the frame exactly as it went in.
 *
 * <p>The Java representation of each type is fixed, so callbacks and appliers never guess:
 *
 * <table>
 *   <caption>Java representations</caption>
 *   <tr><th>type</th><th>Java value</th><th>typical sources</th></tr>
 *   <tr><td>BOOLEAN</td><td>{@link Boolean}</td><td>PostgreSQL boolean</td></tr>
 *   <tr><td>INT64</td><td>{@link Long}</td><td>TINYINT..BIGINT, INT UNSIGNED, YEAR, Oracle
 *       NUMBER(p&lt;19,0)</td></tr>
 *   <tr><td>UINT64</td><td>{@link java.math.BigInteger} in [0, 2^64)</td><td>BIGINT UNSIGNED</td></tr>
 *   <tr><td>FLOAT32</td><td>{@link Float}</td><td>FLOAT, real, BINARY_FLOAT</td></tr>
 *   <tr><td>FLOAT64</td><td>{@link Double}</td><td>DOUBLE, double precision, BINARY_DOUBLE</td></tr>
 *   <tr><td>DECIMAL</td><td>{@link java.math.BigDecimal}, scale kept exactly</td><td>DECIMAL(65,30),
 *       NUMBER, numeric</td></tr>
 *   <tr><td>BITS</td><td>{@link java.util.BitSet}, width from the column</td><td>BIT(1..64), bit
 *       varying</td></tr>
 *   <tr><td>DATE</td><td>{@link SqlDate} (zero dates allowed)</td><td>DATE</td></tr>
 *   <tr><td>TIME</td><td>{@link java.time.Duration}, signed</td><td>TIME(6) '-838:59:59' ..
 *       '838:59:59', interval day to second</td></tr>
 *   <tr><td>DATETIME</td><td>{@link SqlDateTime} (zero dates allowed)</td><td>DATETIME(6), Oracle
 *       DATE/TIMESTAMP, timestamp without time zone</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@link java.time.Instant}</td><td>TIMESTAMP(6), timestamptz</td></tr>
 *   <tr><td>TIMESTAMP_TZ</td><td>{@link java.time.OffsetDateTime}</td><td>Oracle TIMESTAMP WITH
 *       TIME ZONE</td></tr>
 *   <tr><td>STRING</td><td>{@link String}</td><td>CHAR/VARCHAR/TEXT in any charset, ENUM, SET</td></tr>
 *   <tr><td>BYTES</td><td>{@code byte[]}</td><td>BINARY/VARBINARY/BLOB, RAW, bytea</td></tr>
 *   <tr><td>JSON</td><td>{@link String} holding JSON text</td><td>JSON, jsonb</td></tr>
 *   <tr><td>GEOMETRY</td><td>{@link Geometry} (SRID + WKB)</td><td>GEOMETRY and its subtypes</td></tr>
 * </table>
 *
 * <p>A row image given to the frame encoder may also hold a STRING or JSON value as its UTF-8
 * {@code byte[]} (the binlog fetcher's undecoded text; see {@link TextValues}).
 *
 * <p>NULL is not a type: any column may be nullable, and a NULL value is {@code null} in Java and a
 * cleared bit in the row image's null bitmap.
 *
 * <p>The {@link #code()} of each constant is written into schemas and must never change.
 */
public enum ValueType {
    BOOLEAN(1),
    INT64(2),
    UINT64(3),
    FLOAT32(4),
    FLOAT64(5),
    DECIMAL(6),
    BITS(7),
    DATE(8),
    TIME(9),
    DATETIME(10),
    TIMESTAMP(11),
    TIMESTAMP_TZ(12),
    STRING(13),
    BYTES(14),
    JSON(15),
    GEOMETRY(16);

    private static final ValueType[] BY_CODE = new ValueType[17];

    static {
        for (ValueType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;

    ValueType(int code) {
        this.code = code;
    }

    /** The stable numeric code of this type. */
    public int code() {
        return code;
    }

    /**
     * The type with the given code.
     *
     * @throws IllegalArgumentException if no type has that code
     */
    public static ValueType fromCode(int code) {
        ValueType type = code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        if (type == null) {
            throw new IllegalArgumentException("unknown value type: code=" + code);
        }
        return type;
    }
}
