package io.changegrid.fetchers.goldengate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.schema.Column;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;

/**
 * Reads one column value of a JSON formatter image as its column's value type: numbers as JSON
 * numbers or text ({@code treatAllColumnsAsStrings}), exactly (decimals from their digits); dates
 * and timestamps as GoldenGate's text ({@code 2026-11-26 10:00:00.123456}, or ISO 8601 with {@code
 * T}); binary values as Base64. What does not fit is an {@link IllegalArgumentException} naming the
 * value; the caller adds file, offset, table and column.
 */
final class JsonCells {

    private JsonCells() {}

    static Object read(JsonParser parser, Column column) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            throw new IllegalArgumentException("expected a scalar value, found " + token);
        }
        boolean number =
                token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
        return switch (column.type()) {
            case BOOLEAN -> bool(parser, token);
            case INT64 -> {
                if (token == JsonToken.VALUE_NUMBER_INT
                        && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    yield parser.getLongValue();
                }
                yield new BigDecimal(parser.getText()).longValueExact();
            }
            case UINT64 -> {
                BigInteger value = new BigDecimal(parser.getText()).toBigIntegerExact();
                if (value.signum() < 0 || value.bitLength() > 64) {
                    throw new IllegalArgumentException(
                            "not an unsigned 64-bit value: value=" + value);
                }
                yield value;
            }
            case DECIMAL ->
                    number ? parser.getDecimalValue() : new BigDecimal(parser.getText().trim());
            case FLOAT32 -> number ? parser.getFloatValue() : Float.parseFloat(parser.getText());
            case FLOAT64 -> number ? parser.getDoubleValue() : Double.parseDouble(parser.getText());
            case STRING, JSON -> parser.getText();
            case BYTES -> Base64.getDecoder().decode(parser.getText());
            case DATE -> date(parser.getText());
            case DATETIME -> dateTime(parser.getText());
            case TIMESTAMP -> instant(parser.getText());
            case TIMESTAMP_TZ -> OffsetDateTime.parse(iso(parser.getText()));
            case TIME -> time(parser.getText());
            case BITS, GEOMETRY ->
                    throw new IllegalArgumentException("type not carried: " + column.type());
        };
    }

    /** A value written as text (the XML format's column text), as its column's value type. */
    static Object fromText(String text, Column column) {
        return switch (column.type()) {
            case BOOLEAN ->
                    switch (text.trim()) {
                        case "true", "1" -> Boolean.TRUE;
                        case "false", "0" -> Boolean.FALSE;
                        default ->
                                throw new IllegalArgumentException("not a boolean: value=" + text);
                    };
            case INT64 -> new BigDecimal(text.trim()).longValueExact();
            case UINT64 -> {
                BigInteger value = new BigDecimal(text.trim()).toBigIntegerExact();
                if (value.signum() < 0 || value.bitLength() > 64) {
                    throw new IllegalArgumentException(
                            "not an unsigned 64-bit value: value=" + value);
                }
                yield value;
            }
            case DECIMAL -> new BigDecimal(text.trim());
            case FLOAT32 -> Float.parseFloat(text);
            case FLOAT64 -> Double.parseDouble(text);
            case STRING, JSON -> text;
            case BYTES -> Base64.getDecoder().decode(text.trim());
            case DATE -> date(text);
            case DATETIME -> dateTime(text);
            case TIMESTAMP -> instant(text);
            case TIMESTAMP_TZ -> OffsetDateTime.parse(iso(text));
            case TIME -> time(text);
            case BITS, GEOMETRY ->
                    throw new IllegalArgumentException("type not carried: " + column.type());
        };
    }

    /**
     * The epoch microseconds of {@code op_ts}, which GoldenGate writes in UTC: {@code yyyy-MM-dd
     * HH:mm:ss.ffffff}.
     */
    static long epochMicros(String opTs) {
        LocalDateTime time = dateTime(opTs).toLocalDateTime();
        return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1_000;
    }

    private static Boolean bool(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
            return token == JsonToken.VALUE_TRUE;
        }
        return switch (parser.getText()) {
            case "true", "1" -> Boolean.TRUE;
            case "false", "0" -> Boolean.FALSE;
            default ->
                    throw new IllegalArgumentException("not a boolean: value=" + parser.getText());
        };
    }

    private static SqlDate date(String text) {
        return SqlDate.parse(text.length() > 10 ? text.substring(0, 10) : text);
    }

    private static SqlDateTime dateTime(String text) {
        String trimmed = text.trim();
        if (trimmed.length() == 10) {
            return new SqlDateTime(SqlDate.parse(trimmed), 0);
        }
        return SqlDateTime.parse(trimmed.replace('T', ' '));
    }

    /**
     * A TIMESTAMP value: UTC without a zone, else at its {@code Z} or {@code ±hh:mm} offset. The
     * forms GoldenGate writes are read by hand: java.time's formatter parse was a quarter of the
     * relay's fetcher thread (a profile of {@code bin/bench stage1 --source-type goldengate}).
     * Anything else goes to java.time, which accepts or refuses it as before.
     */
    static Instant instant(String text) {
        String trimmed = text.trim();
        Instant fast = fastInstant(trimmed);
        if (fast != null) {
            return fast;
        }
        String iso = iso(trimmed);
        char last = iso.charAt(iso.length() - 1);
        boolean zoned = last == 'Z' || iso.lastIndexOf('+') > 10 || iso.lastIndexOf('-') > 10;
        return zoned
                ? OffsetDateTime.parse(iso).toInstant()
                : LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
    }

    /**
     * {@code yyyy-MM-dd[T ]HH:mm:ss[.f{1,9}]} then nothing, {@code Z} or {@code ±hh:mm}; null for
     * any other text (also a date java.time refuses), left to the java.time path.
     */
    private static Instant fastInstant(String text) {
        int length = text.length();
        if (length < 19) {
            return null;
        }
        int end = length;
        int offsetSeconds = 0;
        char last = text.charAt(length - 1);
        if (last == 'Z') {
            end = length - 1;
        } else if (length >= 25 && text.charAt(length - 3) == ':') {
            char sign = text.charAt(length - 6);
            if (sign != '+' && sign != '-') {
                return null;
            }
            int hours = twoDigits(text, length - 5);
            int minutes = twoDigits(text, length - 2);
            if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) {
                return null;
            }
            offsetSeconds = (sign == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
            end = length - 6;
        }
        SqlDateTime local;
        try {
            local = SqlDateTime.parse(end == length ? text : text.substring(0, end));
        } catch (IllegalArgumentException e) {
            return null;
        }
        SqlDate date = local.date();
        if (date.hasZeroPart() || date.year() < 1 || date.year() > 9999) {
            return null;
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(date.year(), date.month(), date.day()).toEpochDay();
        } catch (DateTimeException e) {
            return null; // e.g. February 30th: java.time's path refuses it, naming the text
        }
        long nanoOfDay = local.nanoOfDay();
        return Instant.ofEpochSecond(
                epochDay * 86_400 + nanoOfDay / 1_000_000_000L - offsetSeconds,
                nanoOfDay % 1_000_000_000L);
    }

    /** The number of the two digits at {@code at}, or -1. */
    private static int twoDigits(String text, int at) {
        char tens = text.charAt(at);
        char ones = text.charAt(at + 1);
        if (tens < '0' || tens > '9' || ones < '0' || ones > '9') {
            return -1;
        }
        return (tens - '0') * 10 + (ones - '0');
    }

    private static String iso(String text) {
        return text.trim().replace(' ', 'T');
    }

    private static Duration time(String text) {
        String trimmed = text.trim();
        boolean negative = trimmed.startsWith("-");
        String[] parts = (negative ? trimmed.substring(1) : trimmed).split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a time: value=" + text);
        }
        BigDecimal seconds = new BigDecimal(parts[2]);
        Duration duration =
                Duration.ofHours(Long.parseLong(parts[0]))
                        .plusMinutes(Long.parseLong(parts[1]))
                        .plusNanos(seconds.movePointRight(9).longValueExact());
        return negative ? duration.negated() : duration;
    }
}
