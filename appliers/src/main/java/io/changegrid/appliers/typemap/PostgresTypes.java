package io.changegrid.appliers.typemap;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;

/**
 * Source columns as PostgreSQL columns. The mapping table is in {@code docs/appliers.md}; in short:
 * integers keep their range in the smallest PostgreSQL integer that holds it, BIGINT UNSIGNED is
 * {@code numeric(20,0)}, DECIMAL keeps precision and scale, TIME (signed, up to 838 hours) is
 * {@code interval}, DATETIME is {@code timestamp}, TIMESTAMP {@code timestamptz}, strings keep
 * their length, JSON is {@code json} (text kept as written), GEOMETRY is {@code bytea} holding
 * MySQL's stored form (SRID, then WKB). TIMESTAMP_TZ (Oracle's TIMESTAMP WITH TIME ZONE) is {@code
 * timestamptz}: the instant is kept exactly to the microsecond (finer parts are refused, never
 * rounded); the offset is not, since no PostgreSQL column type keeps one.
 *
 * <p>Values PostgreSQL cannot hold (zero dates and timestamps, NUL characters in text) stop the
 * applier with {@link ValueNotRepresentableException}.
 */
public final class PostgresTypes implements TypeMapper {

    @Override
    public String target() {
        return "PostgreSQL";
    }

    @Override
    public String refusal(Column column) {
        return "no PostgreSQL type";
    }

    @Override
    public TargetColumn map(Column column) {
        SourceType type = SourceType.parse(column.sourceType());
        String name = column.name();
        return switch (column.type()) {
            case BOOLEAN ->
                    new TargetColumn(
                            column,
                            "boolean",
                            "?",
                            Types.BOOLEAN,
                            (s, i, v) -> s.setBoolean(i, (Boolean) v));
            case INT64 ->
                    new TargetColumn(
                            column,
                            integerType(type),
                            "?",
                            Types.BIGINT,
                            (s, i, v) -> s.setLong(i, (Long) v));
            case UINT64 ->
                    new TargetColumn(
                            column,
                            "numeric(20,0)",
                            "?",
                            Types.NUMERIC,
                            (s, i, v) -> s.setBigDecimal(i, new BigDecimal((BigInteger) v)));
            case FLOAT32 ->
                    new TargetColumn(
                            column, "real", "?", Types.REAL, (s, i, v) -> s.setFloat(i, (Float) v));
            case FLOAT64 ->
                    new TargetColumn(
                            column,
                            "double precision",
                            "?",
                            Types.DOUBLE,
                            (s, i, v) -> s.setDouble(i, (Double) v));
            case DECIMAL ->
                    new TargetColumn(
                            column,
                            decimalType(type),
                            "?",
                            Types.NUMERIC,
                            (s, i, v) -> s.setBigDecimal(i, (BigDecimal) v));
            case BITS ->
                    new TargetColumn(
                            column,
                            "bit(" + Math.max(1, column.width()) + ")",
                            "CAST(? AS bit(" + Math.max(1, column.width()) + "))",
                            Types.VARCHAR,
                            (s, i, v) ->
                                    s.setString(i, Values.bitText((BitSet) v, column.width())));
            case DATE ->
                    new TargetColumn(
                            column,
                            "date",
                            "?",
                            Types.DATE,
                            (s, i, v) -> {
                                SqlDate date = (SqlDate) v;
                                if (date.hasZeroPart()) {
                                    throw new ValueNotRepresentableException(
                                            "zero date in a PostgreSQL date: column=" + name, v);
                                }
                                s.setObject(i, date.toLocalDate());
                            });
            case TIME ->
                    new TargetColumn(
                            column,
                            "interval",
                            "(CAST(? AS bigint) * INTERVAL '1 microsecond')",
                            Types.BIGINT,
                            (s, i, v) ->
                                    s.setLong(i, Values.micros((Duration) v, "column=" + name)));
            case DATETIME ->
                    new TargetColumn(
                            column,
                            "timestamp(6)",
                            "?",
                            Types.TIMESTAMP,
                            (s, i, v) -> {
                                SqlDateTime dateTime = (SqlDateTime) v;
                                if (dateTime.date().hasZeroPart()) {
                                    throw new ValueNotRepresentableException(
                                            "zero date in a PostgreSQL timestamp: column=" + name,
                                            v);
                                }
                                s.setObject(i, dateTime.toLocalDateTime());
                            });
            case TIMESTAMP ->
                    new TargetColumn(
                            column,
                            "timestamptz(6)",
                            "?",
                            Types.TIMESTAMP_WITH_TIMEZONE,
                            (s, i, v) -> {
                                Instant instant = (Instant) v;
                                if (Values.isZeroTimestamp(column, instant)) {
                                    throw new ValueNotRepresentableException(
                                            "zero timestamp in a PostgreSQL timestamptz: column="
                                                    + name,
                                            "0000-00-00 00:00:00");
                                }
                                s.setObject(i, instant.atOffset(ZoneOffset.UTC));
                            });
            case TIMESTAMP_TZ ->
                    new TargetColumn(
                            column,
                            "timestamptz(6)",
                            "?",
                            Types.TIMESTAMP_WITH_TIMEZONE,
                            (s, i, v) ->
                                    s.setObject(
                                            i,
                                            Values.exactMicros(
                                                    (OffsetDateTime) v, "column=" + name)));
            case STRING ->
                    new TargetColumn(
                            column,
                            stringType(type),
                            "?",
                            Types.VARCHAR,
                            (s, i, v) -> {
                                String text = (String) v;
                                if (text.indexOf('\0') >= 0) {
                                    throw new ValueNotRepresentableException(
                                            "NUL character in PostgreSQL text: column=" + name,
                                            text.replace("\0", "\\0"));
                                }
                                s.setString(i, text);
                            });
            case BYTES ->
                    new TargetColumn(
                            column,
                            "bytea",
                            "?",
                            Types.BINARY,
                            (s, i, v) -> s.setBytes(i, (byte[]) v));
            case JSON ->
                    new TargetColumn(
                            column,
                            "json",
                            "CAST(? AS json)",
                            Types.VARCHAR,
                            (s, i, v) -> s.setString(i, (String) v));
            case GEOMETRY ->
                    new TargetColumn(
                            column,
                            "bytea",
                            "?",
                            Types.BINARY,
                            (s, i, v) -> s.setBytes(i, Values.geometryBytes((Geometry) v)));
        };
    }

    /**
     * DECIMAL keeps precision and scale; PostgreSQL's unconstrained {@code numeric} (any scale)
     * stays unconstrained, where {@code numeric(65,0)} would round every fraction away.
     */
    private static String decimalType(SourceType type) {
        if (type.base().equals("numeric") && type.params() == null) {
            return "numeric";
        }
        return type.base().equals("decimal") || type.base().equals("numeric")
                ? "numeric(" + type.length(65) + "," + type.scale(0) + ")"
                : "numeric";
    }

    /** The smallest PostgreSQL integer holding every value of a MySQL integer type. */
    private static String integerType(SourceType type) {
        return switch (type.base()) {
            case "tinyint", "year", "bool", "boolean" -> "smallint";
            case "smallint" -> type.unsigned() ? "integer" : "smallint";
            case "mediumint" -> "integer";
            case "int", "integer" -> type.unsigned() ? "bigint" : "integer";
            default -> "bigint";
        };
    }

    /** varchar(n) for CHAR/VARCHAR (CHAR's padding is not kept by MySQL either), else text. */
    private static String stringType(SourceType type) {
        return switch (type.base()) {
            case "char", "varchar", "character" ->
                    type.params() == null ? "text" : "varchar(" + type.length(1) + ")";
            default -> "text";
        };
    }
}
