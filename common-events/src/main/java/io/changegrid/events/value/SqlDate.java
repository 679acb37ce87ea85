package io.changegrid.events.value;

import java.time.LocalDate;

/**
 * A calendar date as the source stored it, including MySQL's zero date {@code 0000-00-00} and
 * partial zero dates such as {@code 2024-00-15}, which {@link LocalDate} cannot represent.
 *
 * @param year the year, negative for BCE dates of sources that allow them
 * @param month 1..12, or 0 for a zero month
 * @param day 1..31, or 0 for a zero day
 */
public record SqlDate(int year, int month, int day) implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** MySQL's zero date, {@code 0000-00-00}. */
    public static final SqlDate ZERO = new SqlDate(0, 0, 0);

    public SqlDate {
        if (month < 0 || month > 12) {
            throw new IllegalArgumentException("month out of range: month=" + month);
        }
        if (day < 0 || day > 31) {
            throw new IllegalArgumentException("day out of range: day=" + day);
        }
    }

    /** The date of a {@link LocalDate}. */
    public static SqlDate of(LocalDate date) {
        return new SqlDate(date.getYear(), date.getMonthValue(), date.getDayOfMonth());
    }

    /** True when month or day is zero, so that {@link #toLocalDate()} would fail. */
    public boolean hasZeroPart() {
        return month == 0 || day == 0;
    }

    /**
     * This date as a {@link LocalDate}.
     *
     * @throws java.time.DateTimeException for zero and partial zero dates, and impossible days
     */
    public LocalDate toLocalDate() {
        return LocalDate.of(year, month, day);
    }

    /** {@code YYYY-MM-DD}, with a leading minus sign for negative years. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(11);
        appendTo(text);
        return text.toString();
    }

    void appendTo(StringBuilder text) {
        if (year < 0) {
            text.append('-');
        }
        pad(text, Math.abs(year), 4);
        text.append('-');
        pad(text, month, 2);
        text.append('-');
        pad(text, day, 2);
    }

    static void pad(StringBuilder text, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            text.append('0');
        }
        text.append(digits);
    }

    /**
     * Parses {@code YYYY-MM-DD} as written by {@link #toString()}.
     *
     * @throws IllegalArgumentException naming the text if it is not such a date
     */
    public static SqlDate parse(CharSequence text) {
        return TemporalText.parseDate(text, 0, text.length());
    }
}
