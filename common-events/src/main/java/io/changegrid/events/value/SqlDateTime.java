package io.changegrid.events.value;

import java.time.LocalDateTime;

/**
 * A date and time of day without a time zone, as the source stored it, including MySQL's zero
 * datetime {@code 0000-00-00 00:00:00}, which {@link LocalDateTime} cannot represent.
 *
 * @param date the date part, possibly zero
 * @param nanoOfDay nanoseconds since midnight, 0 .. 86,399,999,999,999
 */
public record SqlDateTime(SqlDate date, long nanoOfDay) implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    /** MySQL's zero datetime. */
    public static final SqlDateTime ZERO = new SqlDateTime(SqlDate.ZERO, 0);

    public SqlDateTime {
        if (date == null) {
            throw new IllegalArgumentException("date must not be null");
        }
        if (nanoOfDay < 0 || nanoOfDay >= NANOS_PER_DAY) {
            throw new IllegalArgumentException("time of day out of range: nanoOfDay=" + nanoOfDay);
        }
    }

    /** The datetime of a {@link LocalDateTime}. */
    public static SqlDateTime of(LocalDateTime dateTime) {
        return new SqlDateTime(
                SqlDate.of(dateTime.toLocalDate()), dateTime.toLocalTime().toNanoOfDay());
    }

    /**
     * This datetime as a {@link LocalDateTime}.
     *
     * @throws java.time.DateTimeException for zero and partial zero dates
     */
    public LocalDateTime toLocalDateTime() {
        return LocalDateTime.of(date.toLocalDate(), java.time.LocalTime.ofNanoOfDay(nanoOfDay));
    }

    /** {@code YYYY-MM-DDTHH:MM:SS[.fraction]}; the fraction has no trailing zeros. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(29);
        date.appendTo(text);
        text.append('T');
        TemporalText.appendClock(text, nanoOfDay);
        return text.toString();
    }

    /**
     * Parses the form written by {@link #toString()} ({@code T} or a space between date and time).
     *
     * @throws IllegalArgumentException naming the text if it is not such a datetime
     */
    public static SqlDateTime parse(CharSequence text) {
        return TemporalText.parseDateTime(text);
    }
}
