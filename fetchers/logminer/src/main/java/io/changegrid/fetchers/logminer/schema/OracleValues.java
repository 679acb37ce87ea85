package io.changegrid.fetchers.logminer.schema;

import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.fetchers.logminer.redo.RedoValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;

/**
 * Reads a {@code SQL_REDO} value as its column's type says, into the event value exactly (see
 * {@link OracleType} for the mapping). Dates and timestamps are expected in {@link NlsFormats}.
 *
 * <p>A value its column's type cannot hold, or a form the type never takes (a {@code HEXTORAW} in a
 * NUMBER column), is refused with an {@link IllegalArgumentException} naming the value; the caller
 * adds table, column and transaction. Stateless.
 */
public final class OracleValues {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final byte[] NO_BYTES = new byte[0];

    private OracleValues() {}

    /** The event value of {@code value} in a column of {@code type}; null for NULL. */
    public static Object read(OracleType type, RedoValue value) {
        RedoValue.Form form = value.form();
        if (form == RedoValue.Form.NULL) {
            return null;
        }
        if (form == RedoValue.Form.UNSUPPORTED) {
            throw new IllegalArgumentException(
                    "LogMiner rendered the value as Unsupported Type: type=" + type.declared());
        }
        String text = value.text();
        return switch (type.kind()) {
            case INTEGER -> integer(expect(form, RedoValue.Form.TEXT, type, value));
            case DECIMAL -> decimal(expect(form, RedoValue.Form.TEXT, type, value), type.scale());
            case BINARY_FLOAT -> binaryFloat(expect(form, RedoValue.Form.TEXT, type, value));
            case BINARY_DOUBLE -> binaryDouble(expect(form, RedoValue.Form.TEXT, type, value));
            case TEXT, INTERVAL_YM ->
                    form == RedoValue.Form.YM_INTERVAL && type.kind() == OracleType.Kind.INTERVAL_YM
                            ? text
                            : expect(form, RedoValue.Form.TEXT, type, value);
            case CLOB ->
                    form == RedoValue.Form.EMPTY_CLOB
                            ? ""
                            : expect(form, RedoValue.Form.TEXT, type, value);
            case RAW -> hex(expect(form, RedoValue.Form.HEX, type, value));
            case BLOB ->
                    form == RedoValue.Form.EMPTY_BLOB
                            ? NO_BYTES
                            : hex(expect(form, RedoValue.Form.HEX, type, value));
            case DATE -> dateTime(dateText(form, RedoValue.Form.DATE, type, value), false);
            case TIMESTAMP -> dateTime(dateText(form, RedoValue.Form.TIMESTAMP, type, value), true);
            case TIMESTAMP_TZ ->
                    offsetDateTime(dateText(form, RedoValue.Form.TIMESTAMP_TZ, type, value));
            case TIMESTAMP_LTZ -> instant(type, value);
            case INTERVAL_DS -> dsInterval(expect(form, RedoValue.Form.DS_INTERVAL, type, value));
        };
    }

    private static String expect(
            RedoValue.Form form, RedoValue.Form wanted, OracleType type, RedoValue value) {
        if (form != wanted) {
            throw new IllegalArgumentException(
                    "value of another form than its column's type takes: type="
                            + type.declared()
                            + ", form="
                            + form
                            + ", expected="
                            + wanted
                            + ", value="
                            + value.text());
        }
        return value.text();
    }

    private static String dateText(
            RedoValue.Form form, RedoValue.Form wanted, OracleType type, RedoValue value) {
        String text = expect(form, wanted, type, value);
        String format = value.format();
        if (format != null && !NlsFormats.UNDERSTOOD.contains(format.toUpperCase())) {
            throw new IllegalArgumentException(
                    "date format the fetcher did not set for the mining session: format="
                            + format
                            + ", value="
                            + text
                            + "; the session's NLS_DATE_FORMAT/NLS_TIMESTAMP_FORMAT must be "
                            + NlsFormats.TIMESTAMP);
        }
        return text;
    }

    static Long integer(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return new BigDecimal(text).longValueExact();
            } catch (NumberFormatException | ArithmeticException notInteger) {
                throw new IllegalArgumentException("not an integer NUMBER: value=" + text);
            }
        }
    }

    static BigDecimal decimal(String text, int scale) {
        BigDecimal value;
        try {
            value = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a NUMBER: value=" + text);
        }
        if (scale < 0 || value.scale() == scale) {
            return value;
        }
        try {
            // The column's scale, as every other source's DECIMAL carries it; never rounds.
            return value.setScale(scale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "NUMBER value with more digits than its scale: value="
                            + text
                            + ", scale="
                            + scale);
        }
    }

    static Float binaryFloat(String text) {
        return switch (text) {
            case "Nan", "NaN" -> Float.NaN;
            case "Inf", "+Inf" -> Float.POSITIVE_INFINITY;
            case "-Inf" -> Float.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Float.parseFloat(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a BINARY_FLOAT: value=" + text);
                }
            }
        };
    }

    static Double binaryDouble(String text) {
        return switch (text) {
            case "Nan", "NaN" -> Double.NaN;
            case "Inf", "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a BINARY_DOUBLE: value=" + text);
                }
            }
        };
    }

    static byte[] hex(String text) {
        try {
            return HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not HEXTORAW hex digits: value=" + text);
        }
    }

    /** {@code [ +-]YYYY-MM-DD HH:MI:SS[.f..]}, Oracle's year (no year 0) to the proleptic one. */
    static SqlDateTime dateTime(String text, boolean fractionAllowed) {
        Parsed parsed = Parsed.of(text, fractionAllowed, false);
        return new SqlDateTime(parsed.date(), parsed.nanoOfDay());
    }

    static OffsetDateTime offsetDateTime(String text) {
        Parsed parsed = Parsed.of(text, true, true);
        LocalDate date =
                LocalDate.of(parsed.date().year(), parsed.date().month(), parsed.date().day());
        return OffsetDateTime.of(
                date.atStartOfDay().plusNanos(parsed.nanoOfDay()),
                ZoneOffset.ofTotalSeconds(parsed.offsetSeconds()));
    }

    /**
     * TIMESTAMP WITH LOCAL TIME ZONE: rendered with an offset (TO_TIMESTAMP_TZ) or, in the
     * session's time zone, which the fetcher sets to UTC, without one (TO_TIMESTAMP).
     */
    private static Instant instant(OracleType type, RedoValue value) {
        if (value.form() == RedoValue.Form.TIMESTAMP_TZ) {
            return offsetDateTime(dateText(value.form(), value.form(), type, value)).toInstant();
        }
        SqlDateTime local =
                dateTime(dateText(value.form(), RedoValue.Form.TIMESTAMP, type, value), true);
        long epochDay =
                LocalDate.of(local.date().year(), local.date().month(), local.date().day())
                        .toEpochDay();
        return Instant.ofEpochSecond(
                epochDay * 86_400 + local.nanoOfDay() / NANOS_PER_SECOND,
                local.nanoOfDay() % NANOS_PER_SECOND);
    }

    /** {@code [+-]D HH:MI:SS[.f..]} into a signed duration. */
    static Duration dsInterval(String text) {
        String body = text.trim();
        boolean negative = body.startsWith("-");
        if (negative || body.startsWith("+")) {
            body = body.substring(1);
        }
        int space = body.indexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("not an INTERVAL DAY TO SECOND: value=" + text);
        }
        try {
            long days = Long.parseLong(body.substring(0, space));
            long nanos = nanoOfDay(body, space + 1, body.length(), true);
            Duration duration = Duration.ofDays(days).plusNanos(nanos);
            return negative ? duration.negated() : duration;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an INTERVAL DAY TO SECOND: value=" + text);
        }
    }

    private static long nanoOfDay(String text, int from, int to, boolean fractionAllowed) {
        if (to - from < 8 || text.charAt(from + 2) != ':' || text.charAt(from + 5) != ':') {
            throw new IllegalArgumentException("not a time of day: value=" + text);
        }
        int hours = Integer.parseInt(text, from, from + 2, 10);
        int minutes = Integer.parseInt(text, from + 3, from + 5, 10);
        int seconds = Integer.parseInt(text, from + 6, from + 8, 10);
        if (hours > 23 || minutes > 59 || seconds > 59) {
            throw new IllegalArgumentException("time of day out of range: value=" + text);
        }
        long nanos = 0;
        if (to > from + 8) {
            if (!fractionAllowed || text.charAt(from + 8) != '.') {
                throw new IllegalArgumentException("not a time of day: value=" + text);
            }
            int digits = to - from - 9;
            if (digits > 9) {
                throw new IllegalArgumentException("more than nine fraction digits: value=" + text);
            }
            if (digits > 0) {
                nanos = Long.parseLong(text, from + 9, to, 10);
                for (int i = digits; i < 9; i++) {
                    nanos *= 10;
                }
            }
        }
        return ((hours * 60L + minutes) * 60L + seconds) * NANOS_PER_SECOND + nanos;
    }

    /** A date-time text taken apart. */
    private record Parsed(SqlDate date, long nanoOfDay, int offsetSeconds) {

        static Parsed of(String text, boolean fractionAllowed, boolean offsetRequired) {
            try {
                return parse(text, fractionAllowed, offsetRequired);
            } catch (NumberFormatException
                    | IndexOutOfBoundsException
                    | java.time.DateTimeException e) {
                throw new IllegalArgumentException(
                        "not a date-time in " + NlsFormats.TIMESTAMP_TZ + " shape: value=" + text);
            }
        }

        private static Parsed parse(String text, boolean fractionAllowed, boolean offsetRequired) {
            String body = text.trim();
            boolean bc = body.startsWith("-");
            if (bc || body.startsWith("+")) {
                body = body.substring(1);
            }
            int dash = body.indexOf('-');
            int oracleYear = Integer.parseInt(body, 0, dash, 10);
            if (oracleYear == 0) {
                throw new IllegalArgumentException("Oracle has no year 0: value=" + text);
            }
            int month = Integer.parseInt(body, dash + 1, dash + 3, 10);
            int day = Integer.parseInt(body, dash + 4, dash + 6, 10);
            // Oracle counts 1 BC as -1; the proleptic calendar of the event's DATE has it as year
            // 0.
            int year = bc ? 1 - oracleYear : oracleYear;
            LocalDate.of(year, month, day); // range check
            int timeStart = dash + 7;
            int timeEnd = body.indexOf(' ', timeStart);
            int offsetSeconds = 0;
            if (timeEnd < 0) {
                if (offsetRequired) {
                    throw new IllegalArgumentException("no TZH:TZM offset: value=" + text);
                }
                timeEnd = body.length();
            } else {
                String offset = body.substring(timeEnd + 1).trim();
                int colon = offset.indexOf(':');
                int hours = Integer.parseInt(offset, 1, colon, 10);
                int minutes = Integer.parseInt(offset, colon + 1, offset.length(), 10);
                int seconds = hours * 3600 + minutes * 60;
                offsetSeconds =
                        switch (offset.charAt(0)) {
                            case '+' -> seconds;
                            case '-' -> -seconds;
                            default ->
                                    throw new IllegalArgumentException(
                                            "offset without a sign: value=" + text);
                        };
            }
            long nanos = OracleValues.nanoOfDay(body, timeStart, timeEnd, fractionAllowed);
            return new Parsed(new SqlDate(year, month, day), nanos, offsetSeconds);
        }
    }
}
