package io.changegrid.gridkit.logminer;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Renders row changes as LogMiner writes them in {@code SQL_REDO}, from Oracle's documented shapes
 * and the session formats the fetcher sets ({@code SYYYY-MM-DD HH24:MI:SS[.FF9][ TZH:TZM]}): quoted
 * numbers without trailing zeros ({@code '.5'}, as Oracle's TO_CHAR writes them), {@code ''} for a
 * quote, {@code UNISTR('\XXXX')} pieces for characters outside ASCII in national columns, long
 * literals joined with {@code ||}, {@code HEXTORAW}, {@code TO_DATE}, {@code TO_TIMESTAMP}, {@code
 * TO_TIMESTAMP_TZ}, {@code TO_DSINTERVAL}, {@code NULL} and {@code IS NULL}. Written from the
 * documentation, independent of the fetcher's parser.
 *
 * <p>Values by column type: NUMBER(p,0) {@link Long}, NUMBER(p,s) {@link BigDecimal}, character
 * types {@link String}, BINARY_DOUBLE {@link Double}, DATE and TIMESTAMP {@link LocalDateTime},
 * TIMESTAMP WITH TIME ZONE {@link OffsetDateTime}, RAW {@code byte[]}, INTERVAL DAY TO SECOND
 * {@link Duration}. Stateless.
 */
public final class RedoRenderer {

    /** Longest piece of a quoted literal before the renderer joins pieces with {@code ||}. */
    static final int LITERAL_PIECE = 1000;

    private RedoRenderer() {}

    public static String insert(
            String owner, String table, List<StandInColumn> columns, Map<String, Object> row) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (StandInColumn column : columns) {
            names.add(identifier(column.name()));
            values.add(literal(column, row.get(column.name())));
        }
        return "insert into "
                + identifier(owner)
                + "."
                + identifier(table)
                + "("
                + String.join(",", names)
                + ") values ("
                + String.join(",", values)
                + ");";
    }

    public static String update(
            String owner,
            String table,
            List<StandInColumn> columns,
            Map<String, Object> before,
            Map<String, Object> after) {
        List<String> set = new ArrayList<>();
        for (StandInColumn column : columns) {
            Object old = before.get(column.name());
            Object now = after.get(column.name());
            if (!same(old, now)) {
                set.add(identifier(column.name()) + " = " + literal(column, now));
            }
        }
        return "update "
                + identifier(owner)
                + "."
                + identifier(table)
                + " set "
                + String.join(", ", set)
                + where(columns, before)
                + ";";
    }

    public static String delete(
            String owner, String table, List<StandInColumn> columns, Map<String, Object> before) {
        return "delete from "
                + identifier(owner)
                + "."
                + identifier(table)
                + where(columns, before)
                + ";";
    }

    /** An update whose SET names a column the renderer writes as {@code Unsupported Type}. */
    public static String unsupported(
            String owner, String table, String keyColumn, long key, String column) {
        return "update "
                + identifier(owner)
                + "."
                + identifier(table)
                + " set "
                + identifier(column)
                + " = Unsupported Type where "
                + identifier(keyColumn)
                + " = '"
                + key
                + "';";
    }

    private static String where(List<StandInColumn> columns, Map<String, Object> before) {
        List<String> conditions = new ArrayList<>();
        for (StandInColumn column : columns) {
            Object value = before.get(column.name());
            conditions.add(
                    identifier(column.name())
                            + (value == null ? " IS NULL" : " = " + literal(column, value)));
        }
        return " where " + String.join(" and ", conditions);
    }

    static boolean same(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return java.util.Arrays.equals(x, y);
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return java.util.Objects.equals(a, b);
    }

    static String identifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** One value as LogMiner renders it for a column of {@code column}'s type. */
    public static String literal(StandInColumn column, Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Long l) {
            return "'" + l + "'";
        }
        if (value instanceof BigDecimal d) {
            return "'" + number(d) + "'";
        }
        if (value instanceof Double d) {
            return "'" + binaryDouble(d) + "'";
        }
        if (value instanceof String s) {
            return text(s, column.dataType().startsWith("N"));
        }
        if (value instanceof LocalDateTime t) {
            return column.dataType().equals("DATE")
                    ? "TO_DATE('" + dateTime(t, false) + "', 'SYYYY-MM-DD HH24:MI:SS')"
                    : "TO_TIMESTAMP('" + dateTime(t, true) + "')";
        }
        if (value instanceof OffsetDateTime t) {
            int seconds = t.getOffset().getTotalSeconds();
            String offset =
                    String.format(
                            "%s%02d:%02d",
                            seconds < 0 ? "-" : "+",
                            Math.abs(seconds) / 3600,
                            Math.abs(seconds) / 60 % 60);
            return "TO_TIMESTAMP_TZ('" + dateTime(t.toLocalDateTime(), true) + " " + offset + "')";
        }
        if (value instanceof byte[] b) {
            return "HEXTORAW('" + HexFormat.of().withUpperCase().formatHex(b) + "')";
        }
        if (value instanceof Duration d) {
            return "TO_DSINTERVAL('" + interval(d) + "')";
        }
        throw new IllegalArgumentException(
                "value type the renderer does not know: type=" + value.getClass().getName());
    }

    /** Oracle's TO_CHAR of a NUMBER: no trailing zeros, no leading zero before the point. */
    static String number(BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        String plain = value.stripTrailingZeros().toPlainString();
        if (plain.startsWith("0.")) {
            return plain.substring(1);
        }
        if (plain.startsWith("-0.")) {
            return "-" + plain.substring(2);
        }
        return plain;
    }

    static String binaryDouble(double value) {
        if (Double.isNaN(value)) {
            return "Nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Inf" : "-Inf";
        }
        return Double.toString(value);
    }

    /** Quoted pieces of at most {@link #LITERAL_PIECE} characters, national non-ASCII as UNISTR. */
    static String text(String value, boolean national) {
        List<String> pieces = new ArrayList<>();
        StringBuilder plain = new StringBuilder();
        StringBuilder unicode = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (national && c > 127) {
                flushPlain(plain, pieces);
                unicode.append(String.format("\\%04x", (int) c));
            } else {
                if (unicode.length() > 0) {
                    pieces.add("UNISTR('" + unicode + "')");
                    unicode.setLength(0);
                }
                plain.append(c == '\'' ? "''" : String.valueOf(c));
                if (plain.length() >= LITERAL_PIECE) {
                    flushPlain(plain, pieces);
                }
            }
        }
        if (unicode.length() > 0) {
            pieces.add("UNISTR('" + unicode + "')");
        }
        flushPlain(plain, pieces);
        if (pieces.isEmpty()) {
            return "''";
        }
        return String.join(" || ", pieces);
    }

    private static void flushPlain(StringBuilder plain, List<String> pieces) {
        if (plain.length() > 0) {
            pieces.add("'" + plain + "'");
            plain.setLength(0);
        }
    }

    /** {@code SYYYY-MM-DD HH24:MI:SS[.FF9]}: a space for the sign of AD years. */
    static String dateTime(LocalDateTime t, boolean fraction) {
        int year = t.getYear();
        String sign = year > 0 ? " " : "-";
        int oracleYear = year > 0 ? year : 1 - year; // Oracle has no year 0: 1 BC is -1
        String text =
                String.format(
                        "%s%04d-%02d-%02d %02d:%02d:%02d",
                        sign,
                        oracleYear,
                        t.getMonthValue(),
                        t.getDayOfMonth(),
                        t.getHour(),
                        t.getMinute(),
                        t.getSecond());
        return fraction ? text + String.format(".%09d", t.getNano()) : text;
    }

    /** {@code +DD HH:MI:SS.FFFFFFFFF}. */
    static String interval(Duration d) {
        boolean negative = d.isNegative();
        Duration abs = d.abs();
        return String.format(
                "%s%02d %02d:%02d:%02d.%09d",
                negative ? "-" : "+",
                abs.toDays(),
                abs.toHoursPart(),
                abs.toMinutesPart(),
                abs.toSecondsPart(),
                abs.toNanosPart());
    }
}
