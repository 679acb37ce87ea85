package io.changegrid.fetchers.logminer.schema;

import io.changegrid.events.value.ValueType;
import java.util.Locale;

/**
 * An Oracle column type as {@code ALL_TAB_COLUMNS} describes it, and the event value type its
 * values are carried as.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>Oracle</th><th>event</th></tr>
 *   <tr><td>NUMBER(p,0), p &le; 18</td><td>INT64</td></tr>
 *   <tr><td>NUMBER(p,s), NUMBER, FLOAT(b)</td><td>DECIMAL (scale s kept)</td></tr>
 *   <tr><td>BINARY_FLOAT / BINARY_DOUBLE</td><td>FLOAT32 / FLOAT64</td></tr>
 *   <tr><td>VARCHAR2, NVARCHAR2, CHAR, NCHAR, CLOB, NCLOB</td><td>STRING</td></tr>
 *   <tr><td>DATE, TIMESTAMP(n)</td><td>DATETIME</td></tr>
 *   <tr><td>TIMESTAMP(n) WITH TIME ZONE</td><td>TIMESTAMP_TZ</td></tr>
 *   <tr><td>TIMESTAMP(n) WITH LOCAL TIME ZONE</td><td>TIMESTAMP</td></tr>
 *   <tr><td>RAW, BLOB</td><td>BYTES</td></tr>
 *   <tr><td>INTERVAL DAY TO SECOND</td><td>TIME (a signed duration)</td></tr>
 *   <tr><td>INTERVAL YEAR TO MONTH</td><td>STRING (Oracle's literal, {@code +YY-MM})</td></tr>
 * </table>
 *
 * Any other type (LONG, XMLTYPE, objects, ...) is {@linkplain #of refused}: the caller names the
 * table and column.
 *
 * @param kind how values are read
 * @param declared the declaration, e.g. {@code NUMBER(10,2)}, kept as the column's source type
 * @param scale NUMBER's scale (or -1 when the NUMBER has none); 0 for other kinds
 */
public record OracleType(Kind kind, String declared, int scale) {

    /** How a column's {@code SQL_REDO} values are read. */
    public enum Kind {
        INTEGER(ValueType.INT64),
        DECIMAL(ValueType.DECIMAL),
        BINARY_FLOAT(ValueType.FLOAT32),
        BINARY_DOUBLE(ValueType.FLOAT64),
        TEXT(ValueType.STRING),
        CLOB(ValueType.STRING),
        DATE(ValueType.DATETIME),
        TIMESTAMP(ValueType.DATETIME),
        TIMESTAMP_TZ(ValueType.TIMESTAMP_TZ),
        TIMESTAMP_LTZ(ValueType.TIMESTAMP),
        RAW(ValueType.BYTES),
        BLOB(ValueType.BYTES),
        INTERVAL_DS(ValueType.TIME),
        INTERVAL_YM(ValueType.STRING);

        private final ValueType valueType;

        Kind(ValueType valueType) {
            this.valueType = valueType;
        }

        public ValueType valueType() {
            return valueType;
        }

        /** Whether LogMiner leaves this kind out of WHERE (LOBs are not supplementally logged). */
        public boolean isLob() {
            return this == CLOB || this == BLOB;
        }
    }

    /** The largest NUMBER(p,0) precision whose every value fits a signed 64-bit integer. */
    private static final int MAX_INT64_PRECISION = 18;

    /**
     * The type of an {@code ALL_TAB_COLUMNS} row.
     *
     * @param dataType {@code DATA_TYPE}, e.g. {@code NUMBER}, {@code TIMESTAMP(6) WITH TIME ZONE}
     * @param length {@code CHAR_LENGTH} for character types, else {@code DATA_LENGTH}
     * @param precision {@code DATA_PRECISION}, or null
     * @param scale {@code DATA_SCALE}, or null
     * @return the type, or null when the fetcher cannot carry it
     */
    public static OracleType of(String dataType, int length, Integer precision, Integer scale) {
        String type = dataType.toUpperCase(Locale.ROOT).trim();
        if (type.equals("NUMBER")) {
            if (precision == null) {
                return new OracleType(Kind.DECIMAL, "NUMBER", -1);
            }
            int s = scale == null ? 0 : scale;
            String declared = "NUMBER(" + precision + "," + s + ")";
            if (s == 0 && precision <= MAX_INT64_PRECISION) {
                return new OracleType(Kind.INTEGER, declared, 0);
            }
            return new OracleType(Kind.DECIMAL, declared, s);
        }
        if (type.equals("FLOAT")) {
            return new OracleType(
                    Kind.DECIMAL, precision == null ? "FLOAT" : "FLOAT(" + precision + ")", -1);
        }
        if (type.startsWith("TIMESTAMP")) {
            if (type.endsWith("WITH LOCAL TIME ZONE")) {
                return new OracleType(Kind.TIMESTAMP_LTZ, type, 0);
            }
            if (type.endsWith("WITH TIME ZONE")) {
                return new OracleType(Kind.TIMESTAMP_TZ, type, 0);
            }
            return new OracleType(Kind.TIMESTAMP, type, 0);
        }
        if (type.startsWith("INTERVAL DAY")) {
            return new OracleType(Kind.INTERVAL_DS, type, 0);
        }
        if (type.startsWith("INTERVAL YEAR")) {
            return new OracleType(Kind.INTERVAL_YM, type, 0);
        }
        return switch (type) {
            case "BINARY_FLOAT" -> new OracleType(Kind.BINARY_FLOAT, type, 0);
            case "BINARY_DOUBLE" -> new OracleType(Kind.BINARY_DOUBLE, type, 0);
            case "VARCHAR2", "NVARCHAR2", "CHAR", "NCHAR" ->
                    new OracleType(Kind.TEXT, type + "(" + length + ")", 0);
            case "CLOB", "NCLOB" -> new OracleType(Kind.CLOB, type, 0);
            case "DATE" -> new OracleType(Kind.DATE, type, 0);
            case "RAW" -> new OracleType(Kind.RAW, "RAW(" + length + ")", 0);
            case "BLOB" -> new OracleType(Kind.BLOB, type, 0);
            default -> null;
        };
    }
}
