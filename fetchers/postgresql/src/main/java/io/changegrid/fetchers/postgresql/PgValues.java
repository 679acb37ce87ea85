package io.changegrid.fetchers.postgresql;

import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.HexFormat;

/**
 * Parses the text form pgoutput sends (the type's output function, with the walsender session's
 * {@code DateStyle=ISO} that pgjdbc asks for) into event values, exactly.
 *
 * <p>What a value type cannot carry is refused with an {@link IllegalArgumentException} naming the
 * value; the caller adds table, column and transaction: {@code numeric} NaN and ±Infinity (DECIMAL
 * has no such values), and dates and timestamps of {@code infinity}/{@code -infinity}.
 */
final class PgValues {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private PgValues() {}

    static Object parse(PgValueKind kind, String text, int width) {
        return switch (kind) {
            case BOOLEAN -> bool(text);
            case INTEGER -> Long.parseLong(text);
            case NUMERIC -> numeric(text);
            case FLOAT4 -> Float.parseFloat(text);
            case FLOAT8 -> Double.parseDouble(text);
            case TEXT, JSON -> text;
            case BYTEA -> bytea(text);
            case DATE -> date(text);
            case TIME -> Duration.ofNanos(nanoOfDay(text, 0, text.length()));
            case TIMESTAMP -> timestamp(text);
            case TIMESTAMPTZ -> timestamptz(text);
            case BIT -> bits(text, width);
        };
    }

    private static Boolean bool(String text) {
        return switch (text) {
            case "t" -> Boolean.TRUE;
            case "f" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("not a boolean: value=" + text);
        };
    }

    private static BigDecimal numeric(String text) {
        if (text.equals("NaN") || text.endsWith("Infinity")) {
            throw new IllegalArgumentException(
                    "numeric value a DECIMAL cannot carry: value="
                            + text
                            + "; use float8 for NaN/Infinity or keep them out of captured numeric columns");
        }
        return new BigDecimal(text);
    }

    private static byte[] bytea(String text) {
        if (!text.startsWith("\\x")) {
            throw new IllegalArgumentException(
                    "bytea not in hex output form (bytea_output=hex): value starts with="
                            + text.substring(0, Math.min(8, text.length())));
        }
        return HexFormat.of().parseHex(text, 2, text.length());
    }

    private static SqlDate date(String text) {
        refuseInfinity(text);
        boolean bc = text.endsWith(" BC");
        String iso = bc ? text.substring(0, text.length() - 3) : text;
        int dash = iso.indexOf('-', 1);
        int year = Integer.parseInt(iso.substring(0, dash));
        int month = Integer.parseInt(iso.substring(dash + 1, dash + 3));
        int day = Integer.parseInt(iso.substring(dash + 4, dash + 6));
        // 1 BC is year 0 in the proleptic calendar the event's DATE uses, as ISO 8601 counts.
        return new SqlDate(bc ? 1 - year : year, month, day);
    }

    private static SqlDateTime timestamp(String text) {
        refuseInfinity(text);
        boolean bc = text.endsWith(" BC");
        String body = bc ? text.substring(0, text.length() - 3) : text;
        int space = body.indexOf(' ');
        SqlDate date = date(body.substring(0, space) + (bc ? " BC" : ""));
        return new SqlDateTime(date, nanoOfDay(body, space + 1, body.length()));
    }

    private static Instant timestamptz(String text) {
        refuseInfinity(text);
        boolean bc = text.endsWith(" BC");
        String body = bc ? text.substring(0, text.length() - 3) : text;
        int space = body.indexOf(' ');
        int sign = Math.max(body.indexOf('+', space), body.indexOf('-', space));
        SqlDate date = date(body.substring(0, space) + (bc ? " BC" : ""));
        long nanoOfDay = nanoOfDay(body, space + 1, sign);
        int offsetSeconds = offsetSeconds(body.substring(sign));
        long epochDay = LocalDate.of(date.year(), date.month(), date.day()).toEpochDay();
        long seconds = epochDay * 86_400 + nanoOfDay / NANOS_PER_SECOND - offsetSeconds;
        return Instant.ofEpochSecond(seconds, nanoOfDay % NANOS_PER_SECOND);
    }

    /** {@code +HH}, {@code +HH:MM} or {@code +HH:MM:SS}. */
    private static int offsetSeconds(String text) {
        String[] parts = text.substring(1).split(":");
        int seconds = Integer.parseInt(parts[0]) * 3600;
        if (parts.length > 1) {
            seconds += Integer.parseInt(parts[1]) * 60;
        }
        if (parts.length > 2) {
            seconds += Integer.parseInt(parts[2]);
        }
        ZoneOffset.ofTotalSeconds(text.charAt(0) == '-' ? -seconds : seconds); // range check
        return text.charAt(0) == '-' ? -seconds : seconds;
    }

    /**
     * {@code HH:MM:SS[.ffffff]} in {@code text[from, to)}; 24:00:00 is allowed, as PostgreSQL does.
     */
    private static long nanoOfDay(String text, int from, int to) {
        int hours = Integer.parseInt(text, from, from + 2, 10);
        int minutes = Integer.parseInt(text, from + 3, from + 5, 10);
        int seconds = Integer.parseInt(text, from + 6, from + 8, 10);
        long nanos = 0;
        if (to > from + 8) {
            if (text.charAt(from + 8) != '.') {
                throw new IllegalArgumentException("not a time of day: value=" + text);
            }
            String fraction = text.substring(from + 9, to);
            nanos = Long.parseLong((fraction + "000000000").substring(0, 9));
        }
        return ((hours * 60L + minutes) * 60L + seconds) * NANOS_PER_SECOND + nanos;
    }

    /** A string of 0/1, most significant first, into bits numbered from the least significant. */
    private static BitSet bits(String text, int width) {
        if (text.length() != width) {
            throw new IllegalArgumentException(
                    "bit string of another width than its column: value="
                            + text
                            + ", width="
                            + width);
        }
        BitSet bits = new BitSet(width);
        for (int i = 0; i < width; i++) {
            if (text.charAt(width - 1 - i) == '1') {
                bits.set(i);
            }
        }
        return bits;
    }

    private static void refuseInfinity(String text) {
        if (text.endsWith("infinity")) {
            throw new IllegalArgumentException(
                    "date/timestamp value the event's temporal types cannot carry: value=" + text);
        }
    }
}
