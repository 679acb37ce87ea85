package io.changegrid.appliers.typemap;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;

/**
 * Event values as fields of PostgreSQL's {@code COPY ... FROM STDIN} text format, for the columns
 * {@link PostgresTypes} maps: each value in the input syntax of its target type, escaped for COPY
 * (backslash, tab, newline, carriage return; {@code \N} is NULL). The same values and refusals as
 * the statement path's binders: zero dates, NUL characters, sub-microsecond durations and
 * sub-microsecond timestamps with an offset stop the applier with {@link
 * ValueNotRepresentableException}.
 *
 * <p>Stateless; appends into the caller's builder, allocating little on the way.
 */
public final class PostgresCopyText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PostgresCopyText() {}

    /** Appends the NULL field. */
    public static void appendNull(StringBuilder out) {
        out.append("\\N");
    }

    /**
     * Appends one non-null value of a column.
     *
     * @throws ValueNotRepresentableException if the value has no form in the PostgreSQL column
     */
    public static void append(StringBuilder out, Column column, Object value) {
        String name = column.name();
        switch (column.type()) {
            case BOOLEAN -> out.append((Boolean) value ? 't' : 'f');
            case INT64 -> out.append((long) (Long) value);
            case UINT64 -> out.append(((BigInteger) value).toString());
            // Java's shortest round-trip text; NaN and Infinity are PostgreSQL's spellings too.
            case FLOAT32 -> out.append(Float.toString((Float) value));
            case FLOAT64 -> out.append(Double.toString((Double) value));
            case DECIMAL -> out.append(((BigDecimal) value).toPlainString());
            case BITS -> out.append(Values.bitText((BitSet) value, column.width()));
            case DATE -> {
                SqlDate date = (SqlDate) value;
                if (date.hasZeroPart()) {
                    throw new ValueNotRepresentableException(
                            "zero date in a PostgreSQL date: column=" + name, value);
                }
                appendDate(out, date.toLocalDate());
            }
            case TIME -> appendSeconds(out, Values.micros((Duration) value, "column=" + name));
            case DATETIME -> {
                SqlDateTime dateTime = (SqlDateTime) value;
                if (dateTime.date().hasZeroPart()) {
                    throw new ValueNotRepresentableException(
                            "zero date in a PostgreSQL timestamp: column=" + name, value);
                }
                appendDateTime(out, dateTime.toLocalDateTime());
            }
            case TIMESTAMP -> {
                if (Values.isZeroTimestamp(column, (Instant) value)) {
                    throw new ValueNotRepresentableException(
                            "zero timestamp in a PostgreSQL timestamptz: column=" + name,
                            "0000-00-00 00:00:00");
                }
                appendDateTime(out, LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC));
                out.append("+00");
            }
            case STRING -> {
                String text = (String) value;
                if (text.indexOf('\0') >= 0) {
                    throw new ValueNotRepresentableException(
                            "NUL character in PostgreSQL text: column=" + name,
                            text.replace("\0", "\\0"));
                }
                appendEscaped(out, text);
            }
            case JSON -> appendEscaped(out, (String) value);
            case BYTES -> appendBytea(out, (byte[]) value);
            case GEOMETRY -> appendBytea(out, Values.geometryBytes((Geometry) value));
            case TIMESTAMP_TZ -> {
                // timestamptz: the instant, written in UTC; the statement path binds the same
                OffsetDateTime exact = Values.exactMicros((OffsetDateTime) value, "column=" + name);
                appendDateTime(out, LocalDateTime.ofInstant(exact.toInstant(), ZoneOffset.UTC));
                out.append("+00");
            }
        }
    }

    /** A text field: COPY's escapes for backslash, tab, newline and carriage return. */
    static void appendEscaped(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
    }

    /** bytea's hex input {@code \x0a1b}, its backslash escaped for COPY. */
    static void appendBytea(StringBuilder out, byte[] bytes) {
        out.append("\\\\x");
        for (byte b : bytes) {
            out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
    }

    /**
     * An interval of whole microseconds as {@code [-]S.ffffff seconds}: a unit PostgreSQL parses
     * without overflow for MySQL's ±838 hours, and with the sign on the whole value.
     */
    static void appendSeconds(StringBuilder out, long micros) {
        if (micros < 0) {
            out.append('-');
        }
        long magnitude = Math.abs(micros);
        out.append(magnitude / 1_000_000).append('.');
        Values.pad(out, magnitude % 1_000_000, 6);
        out.append(" seconds");
    }

    private static void appendDate(StringBuilder out, LocalDate date) {
        Values.pad(out, date.getYear(), 4);
        out.append('-');
        Values.pad(out, date.getMonthValue(), 2);
        out.append('-');
        Values.pad(out, date.getDayOfMonth(), 2);
    }

    private static void appendDateTime(StringBuilder out, LocalDateTime dateTime) {
        appendDate(out, dateTime.toLocalDate());
        out.append(' ');
        Values.pad(out, dateTime.getHour(), 2);
        out.append(':');
        Values.pad(out, dateTime.getMinute(), 2);
        out.append(':');
        Values.pad(out, dateTime.getSecond(), 2);
        out.append('.');
        Values.pad(out, dateTime.getNano() / 1000, 6);
    }
}
