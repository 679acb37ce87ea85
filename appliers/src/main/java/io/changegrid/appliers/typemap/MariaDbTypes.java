package io.changegrid.appliers.typemap;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.LosslessSingleByteCharset;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * Source columns as MariaDB/MySQL columns. A MySQL or MariaDB source column keeps its own
 * declaration (character set, ENUM labels, display width, UNSIGNED), so the target is the same
 * table; other sources' columns get the widest MySQL type of their value type (see {@code
 * docs/appliers.md}). Temporal values are written as text so zero dates and negative times arrive
 * exactly; TIMESTAMP values are written in UTC (the applier's sessions run with {@code time_zone =
 * '+00:00'}). TIMESTAMP_TZ is refused: no MySQL type keeps an offset.
 *
 * <p>Text is written through the session's utf8mb4 and converted by the server into the column's
 * character set, except text of a single-byte character set written into a column of that same set
 * (see {@link #storedIn}).
 */
public final class MariaDbTypes implements TypeMapper {

    /** Source type names that MySQL and MariaDB declare as such, per value type. */
    private static final Map<ValueType, Set<String>> NATIVE = new EnumMap<>(ValueType.class);

    static {
        Set<String> integers =
                Set.of("tinyint", "smallint", "mediumint", "int", "integer", "bigint", "year");
        NATIVE.put(ValueType.BOOLEAN, Set.of("boolean", "bool"));
        NATIVE.put(ValueType.INT64, integers);
        NATIVE.put(ValueType.UINT64, Set.of("bigint"));
        NATIVE.put(ValueType.FLOAT32, Set.of("float"));
        NATIVE.put(ValueType.FLOAT64, Set.of("double", "real"));
        NATIVE.put(ValueType.DECIMAL, Set.of("decimal", "numeric"));
        NATIVE.put(ValueType.BITS, Set.of("bit"));
        NATIVE.put(ValueType.DATE, Set.of("date"));
        NATIVE.put(ValueType.TIME, Set.of("time"));
        NATIVE.put(ValueType.DATETIME, Set.of("datetime"));
        NATIVE.put(ValueType.TIMESTAMP, Set.of("timestamp"));
        NATIVE.put(ValueType.TIMESTAMP_TZ, Set.of());
        NATIVE.put(
                ValueType.STRING,
                Set.of(
                        "char",
                        "varchar",
                        "tinytext",
                        "text",
                        "mediumtext",
                        "longtext",
                        "enum",
                        "set",
                        "uuid",
                        "inet4",
                        "inet6"));
        NATIVE.put(
                ValueType.BYTES,
                Set.of(
                        "binary",
                        "varbinary",
                        "tinyblob",
                        "blob",
                        "mediumblob",
                        "longblob",
                        "char",
                        "varchar",
                        "tinytext",
                        "text",
                        "mediumtext",
                        "longtext"));
        NATIVE.put(ValueType.JSON, Set.of("json"));
        NATIVE.put(
                ValueType.GEOMETRY,
                Set.of(
                        "geometry",
                        "point",
                        "linestring",
                        "polygon",
                        "multipoint",
                        "multilinestring",
                        "multipolygon",
                        "geometrycollection"));
    }

    /**
     * The character types whose values are text in the column's character set; ENUM and SET values
     * are labels, which the server matches by their characters.
     */
    private static final Set<String> TEXT =
            Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext");

    /** MySQL's largest DECIMAL: 65 digits, 30 of them after the point. */
    private static final int MAX_DECIMAL_DIGITS = 65;

    private static final int MAX_DECIMAL_SCALE = 30;

    /** The widest type of each value type, for columns of other sources. */
    private static final Map<ValueType, String> WIDEST = new EnumMap<>(ValueType.class);

    static {
        WIDEST.put(ValueType.BOOLEAN, "boolean");
        WIDEST.put(ValueType.INT64, "bigint");
        WIDEST.put(ValueType.UINT64, "bigint unsigned");
        WIDEST.put(ValueType.FLOAT32, "float");
        WIDEST.put(ValueType.FLOAT64, "double");
        WIDEST.put(ValueType.DECIMAL, "decimal(65,30)");
        WIDEST.put(ValueType.DATE, "date");
        WIDEST.put(ValueType.TIME, "time(6)");
        WIDEST.put(ValueType.DATETIME, "datetime(6)");
        WIDEST.put(ValueType.TIMESTAMP, "timestamp(6)");
        WIDEST.put(ValueType.STRING, "longtext character set utf8mb4");
        WIDEST.put(ValueType.BYTES, "longblob");
        WIDEST.put(ValueType.JSON, "json");
        WIDEST.put(ValueType.GEOMETRY, "geometry");
    }

    @Override
    public String target() {
        return "MariaDB/MySQL";
    }

    @Override
    public String refusal(Column column) {
        if (isForged(column)) {
            return "not a MariaDB/MySQL column type (refused before it reaches DDL)";
        }
        return column.type() == ValueType.TIMESTAMP_TZ
                ? "MySQL's TIMESTAMP and DATETIME keep no time zone offset"
                : "no MariaDB/MySQL type";
    }

    @Override
    public TargetColumn map(Column column) {
        if (column.type() == ValueType.TIMESTAMP_TZ || isForged(column)) {
            return null;
        }
        String declaration = declaration(column);
        return switch (column.type()) {
            case BOOLEAN ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.BOOLEAN,
                            (s, i, v) -> s.setBoolean(i, (Boolean) v));
            case INT64 ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.BIGINT,
                            (s, i, v) -> s.setLong(i, (Long) v));
            case UINT64 ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.NUMERIC,
                            (s, i, v) -> s.setBigDecimal(i, new BigDecimal((BigInteger) v)));
            case FLOAT32 ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.REAL,
                            // As the double it widens to, exactly: the driver sends a float as
                            // its shortest decimal text, which for +-FLT_MAX (3.4028235E38) is
                            // above FLT_MAX, so a strict server refuses it as out of range. The
                            // double's text parses back to the same double, which is the float.
                            (s, i, v) -> s.setDouble(i, finite((Float) v, column)));
            case FLOAT64 ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.DOUBLE,
                            (s, i, v) -> s.setDouble(i, finite((Double) v, column)));
            case DECIMAL -> {
                SourceType declared = SourceType.parse(declaration);
                int scale = declared.scale(0);
                int integerDigits = declared.length(MAX_DECIMAL_DIGITS) - scale;
                yield new TargetColumn(
                        column,
                        declaration,
                        "?",
                        Types.DECIMAL,
                        (s, i, v) ->
                                s.setBigDecimal(
                                        i, fitting((BigDecimal) v, scale, integerDigits, column)));
            }
            case BITS ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARBINARY,
                            (s, i, v) ->
                                    s.setBytes(i, Values.bitBytes((BitSet) v, column.width())));
            case DATE ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARCHAR,
                            (s, i, v) ->
                                    s.setString(i, inYearRange((SqlDate) v, column).toString()));
            case TIME ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARCHAR,
                            (s, i, v) -> s.setString(i, Values.timeText((Duration) v)));
            case DATETIME ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARCHAR,
                            (s, i, v) -> {
                                SqlDateTime dateTime = (SqlDateTime) v;
                                inYearRange(dateTime.date(), column);
                                s.setString(i, dateTimeText(dateTime));
                            });
            case TIMESTAMP ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARCHAR,
                            (s, i, v) -> s.setString(i, timestampText((Instant) v, column)));
            case STRING, JSON ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARCHAR,
                            (s, i, v) -> s.setString(i, (String) v));
            case BYTES ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARBINARY,
                            (s, i, v) -> s.setBytes(i, (byte[]) v));
            case GEOMETRY ->
                    new TargetColumn(
                            column,
                            declaration,
                            "?",
                            Types.VARBINARY,
                            (s, i, v) -> s.setBytes(i, Values.geometryBytes((Geometry) v)));
            case TIMESTAMP_TZ -> null;
        };
    }

    /**
     * Text of a single-byte character set ({@code cp1251}, ...; see {@link
     * LosslessSingleByteCharset}) written into a target column of that same set is bound as the
     * source's bytes, which the mapping gives back, converted from {@code binary} so that the
     * server stores them unchanged and compares them in the column's collation (keys). Through the
     * session's utf8mb4 a byte the set leaves undefined ({@code cp1251}'s 0x98, U+0098 on the
     * stream) has no form in the column and the server refuses the row. Into a column of another
     * character set the text is converted by the server, as any text.
     */
    @Override
    public TargetColumn storedIn(TargetColumn column, String charset) {
        Column source = column.source();
        if (source.type() != ValueType.STRING || charset == null) {
            return column;
        }
        SourceType type = SourceType.parse(source.sourceType());
        if (!TEXT.contains(type.base()) || !charset.equalsIgnoreCase(type.charset())) {
            return column;
        }
        return LosslessSingleByteCharset.forSourceCharset(charset)
                .map(
                        set ->
                                new TargetColumn(
                                        source,
                                        column.declaration(),
                                        "CONVERT(? USING " + set.sourceName() + ")",
                                        Types.VARCHAR,
                                        (s, i, v) ->
                                                s.setBytes(
                                                        i, sourceBytes(set, source, (String) v))))
                .orElse(column);
    }

    private static byte[] sourceBytes(LosslessSingleByteCharset set, Column column, String text) {
        try {
            return set.bytesOf(text);
        } catch (IllegalArgumentException e) {
            throw new ValueNotRepresentableException(
                    e.getMessage() + ", column=" + column.name(), "'" + text + "'");
        }
    }

    /**
     * Whether the relay-supplied type is one {@link #declaration} would paste into DDL as a MySQL
     * declaration without it being one ({@link MySqlTypeGrammar}): other sources' types, which get
     * the widest type instead, never reach DDL as sent.
     */
    private static boolean isForged(Column column) {
        SourceType type = SourceType.parse(column.sourceType());
        return isMySqlDeclaration(column, type) && !MySqlTypeGrammar.matches(column.sourceType());
    }

    private static String declaration(Column column) {
        SourceType type = SourceType.parse(column.sourceType());
        if (isMySqlDeclaration(column, type)) {
            return column.sourceType();
        }
        return column.type() == ValueType.BITS
                ? "bit(" + Math.max(1, column.width()) + ")"
                : WIDEST.get(column.type());
    }

    /**
     * Whether a source type is a MySQL declaration the target can take as it is. Another source's
     * type may share its leading word with a MySQL type and still mean another thing: PostgreSQL's
     * {@code time(6) without time zone}, {@code text[]}, an unconstrained {@code numeric} (MySQL:
     * {@code decimal(10,0)}), {@code numeric(100,2)} (beyond MySQL's 65 digits), or {@code text}
     * without a character set (MySQL's holds 64 KiB; a MySQL source always names the character set
     * of a character column). Those take the widest type of their value type instead.
     */
    private static boolean isMySqlDeclaration(Column column, SourceType type) {
        if (!NATIVE.get(column.type()).contains(type.base())) {
            return false;
        }
        String lower = type.text().toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("[") || lower.contains("time zone")) {
            return false;
        }
        return switch (column.type()) {
            case DECIMAL ->
                    type.params() != null
                            && type.length(Integer.MAX_VALUE) <= MAX_DECIMAL_DIGITS
                            && type.scale(0) <= MAX_DECIMAL_SCALE;
            case STRING -> !TEXT.contains(type.base()) || type.charset() != null;
            default -> true;
        };
    }

    /** MariaDB's DOUBLE and FLOAT hold no NaN and no infinity. */
    private static double finite(double value, Column column) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new ValueNotRepresentableException(
                    "MariaDB/MySQL floating point holds no NaN or infinity: column="
                            + column.name(),
                    value);
        }
        return value;
    }

    /**
     * A value that fits the column's DECIMAL(p,s) exactly. The server would round extra decimals
     * with a note only, even in strict mode: refused here instead, so nothing is silently lost.
     */
    private static BigDecimal fitting(
            BigDecimal value, int scale, int integerDigits, Column column) {
        if (value.scale() > scale && value.stripTrailingZeros().scale() > scale
                || value.precision() - value.scale() > integerDigits) {
            throw new ValueNotRepresentableException(
                    "decimal does not fit the MariaDB/MySQL column exactly (at most "
                            + integerDigits
                            + " digits before the point, "
                            + scale
                            + " after): column="
                            + column.name(),
                    value.toPlainString());
        }
        return value;
    }

    /** MariaDB/MySQL dates hold the years 0000 to 9999 (ISO years: 1 BC is 0). */
    private static SqlDate inYearRange(SqlDate date, Column column) {
        if (date.year() < 0 || date.year() > 9999) {
            throw new ValueNotRepresentableException(
                    "year outside MariaDB/MySQL's 0000..9999: column=" + column.name(), date);
        }
        return date;
    }

    private static String dateTimeText(SqlDateTime value) {
        StringBuilder text = new StringBuilder(26);
        text.append(value.date()).append(' ');
        long nanos = value.nanoOfDay();
        long seconds = nanos / 1_000_000_000L;
        Values.pad(text, seconds / 3600, 2);
        text.append(':');
        Values.pad(text, (seconds / 60) % 60, 2);
        text.append(':');
        Values.pad(text, seconds % 60, 2);
        text.append('.');
        Values.pad(text, (nanos % 1_000_000_000L) / 1000, 6);
        return text.toString();
    }

    /**
     * UTC text; epoch second 0 is MySQL's zero timestamp, which no valid TIMESTAMP has. An instant
     * of another source's column is refused outside MySQL's TIMESTAMP range instead (1970-01-01
     * 00:00:01 to 2038-01-19 03:14:07.999999 UTC), epoch 0 included: it would read back as zero.
     */
    private static String timestampText(Instant instant, Column column) {
        if (Values.isZeroTimestamp(column, instant)) {
            return "0000-00-00 00:00:00";
        }
        if (instant.getEpochSecond() < 1 || instant.getEpochSecond() > Integer.MAX_VALUE) {
            throw new ValueNotRepresentableException(
                    "instant outside MariaDB/MySQL's TIMESTAMP range: column=" + column.name(),
                    instant);
        }
        return dateTimeText(SqlDateTime.of(LocalDateTime.ofInstant(instant, ZoneOffset.UTC)));
    }
}
