package io.changegrid.events.value;

import java.time.Duration;

/**
 * The text forms of the temporal values, shared by {@code toString()}, the JSON form and humans.
 *
 * <ul>
 *   <li>date: {@code YYYY-MM-DD}, zero parts allowed ({@code 0000-00-00});
 *   <li>datetime: {@code YYYY-MM-DDTHH:MM:SS[.fraction]};
 *   <li>time: {@code [-]H..H:MM:SS[.fraction]}, hours unbounded because a MySQL TIME is a signed
 *       duration ({@code -838:59:59.000000} .. {@code 838:59:59.000000}).
 * </ul>
 *
 * The fraction has one to nine digits and no trailing zeros; it is left out when zero. Parsing
 * accepts exactly these forms and rejects everything else with the offending text in the message.
 */
public final class TemporalText {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private TemporalText() {}

    /** Formats a TIME value. */
    public static String formatTime(Duration time) {
        long nanos = time.toNanos();
        StringBuilder text = new StringBuilder(20);
        if (nanos < 0) {
            text.append('-');
            nanos = -nanos;
        }
        appendClock(text, nanos);
        return text.toString();
    }

    /**
     * Parses a TIME value written by {@link #formatTime(Duration)}.
     *
     * @throws IllegalArgumentException naming the text if it is not such a time
     */
    public static Duration parseTime(CharSequence text) {
        int start = 0;
        boolean negative = text.length() > 0 && text.charAt(0) == '-';
        if (negative) {
            start = 1;
        }
        long nanos = parseClock(text, start, text.length(), Long.MAX_VALUE / NANOS_PER_SECOND);
        return Duration.ofNanos(negative ? -nanos : nanos);
    }

    /** Appends {@code HH:MM:SS[.fraction]} for a non-negative number of nanoseconds. */
    static void appendClock(StringBuilder text, long nanos) {
        long seconds = nanos / NANOS_PER_SECOND;
        int fraction = (int) (nanos % NANOS_PER_SECOND);
        SqlDate.pad(text, seconds / 3600, 2);
        text.append(':');
        SqlDate.pad(text, (seconds / 60) % 60, 2);
        text.append(':');
        SqlDate.pad(text, seconds % 60, 2);
        if (fraction != 0) {
            String digits = Integer.toString(fraction);
            text.append('.');
            for (int i = digits.length(); i < 9; i++) {
                text.append('0');
            }
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            text.append(digits, 0, end);
        }
    }

    static SqlDate parseDate(CharSequence text, int start, int end) {
        int pos = start;
        boolean negative = pos < end && text.charAt(pos) == '-';
        if (negative) {
            pos++;
        }
        int yearEnd = indexOf(text, '-', pos, end);
        if (yearEnd - pos < 4 || yearEnd + 6 != end) {
            throw invalid("date", text);
        }
        int year = (int) digits(text, pos, yearEnd, "date");
        int month = (int) digits(text, yearEnd + 1, yearEnd + 3, "date");
        if (text.charAt(yearEnd + 3) != '-') {
            throw invalid("date", text);
        }
        int day = (int) digits(text, yearEnd + 4, end, "date");
        try {
            return new SqlDate(negative ? -year : year, month, day);
        } catch (IllegalArgumentException e) {
            throw invalid("date", text);
        }
    }

    static SqlDateTime parseDateTime(CharSequence text) {
        int separator = -1;
        for (int i = 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 'T' || c == ' ') {
                separator = i;
                break;
            }
        }
        if (separator < 0) {
            throw invalid("datetime", text);
        }
        SqlDate date = parseDate(text, 0, separator);
        long nanoOfDay = parseClock(text, separator + 1, text.length(), 23);
        return new SqlDateTime(date, nanoOfDay);
    }

    private static long parseClock(CharSequence text, int start, int end, long maxHours) {
        int hoursEnd = indexOf(text, ':', start, end);
        if (hoursEnd - start < 2 || hoursEnd + 6 > end || text.charAt(hoursEnd + 3) != ':') {
            throw invalid("time", text);
        }
        long hours = digits(text, start, hoursEnd, "time");
        long minutes = digits(text, hoursEnd + 1, hoursEnd + 3, "time");
        long seconds = digits(text, hoursEnd + 4, hoursEnd + 6, "time");
        if (hours > maxHours || minutes > 59 || seconds > 59) {
            throw invalid("time", text);
        }
        long fraction = 0;
        int pos = hoursEnd + 6;
        if (pos < end) {
            int digitCount = end - pos - 1;
            if (text.charAt(pos) != '.' || digitCount < 1 || digitCount > 9) {
                throw invalid("time", text);
            }
            fraction = digits(text, pos + 1, end, "time");
            for (int i = digitCount; i < 9; i++) {
                fraction *= 10;
            }
        }
        return ((hours * 60 + minutes) * 60 + seconds) * NANOS_PER_SECOND + fraction;
    }

    private static int indexOf(CharSequence text, char c, int start, int end) {
        for (int i = start; i < end; i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return end;
    }

    private static long digits(CharSequence text, int start, int end, String what) {
        if (start >= end || end - start > 18) {
            throw invalid(what, text);
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw invalid(what, text);
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static IllegalArgumentException invalid(String what, CharSequence text) {
        return new IllegalArgumentException("not a " + what + ": text=" + text);
    }
}
