package io.changegrid.policy.select;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.policy.select.Predicate.Literal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Converts a literal once to the Java value of a column's type, and orders a row value against it
 * by the column's type: numbers by value (a DECIMAL {@code 1.50} equals {@code 1.5}), strings by
 * Unicode code point, dates and times on their timelines. Stateless.
 */
final class ValueOrder {

    private ValueOrder() {}

    /**
     * The literal as a value comparable with the column's values.
     *
     * @throws IllegalArgumentException if the literal does not fit the column's type
     */
    static Object convert(Column column, Literal literal) {
        Literal.Kind kind = literal.kind();
        String text = literal.text();
        boolean comparable = true;
        try {
            switch (column.type()) {
                case INT64:
                case UINT64:
                case DECIMAL:
                case FLOAT32:
                case FLOAT64:
                    if (kind == Literal.Kind.INTEGER) {
                        return new BigInteger(text);
                    }
                    if (kind == Literal.Kind.DECIMAL) {
                        return new BigDecimal(text);
                    }
                    break;
                case BOOLEAN:
                    if (kind == Literal.Kind.BOOLEAN) {
                        return Boolean.valueOf(text.equals("TRUE"));
                    }
                    break;
                case STRING:
                case JSON:
                    if (kind == Literal.Kind.STRING) {
                        return text;
                    }
                    break;
                case DATE:
                    if (kind == Literal.Kind.STRING) {
                        return SqlDate.parse(text);
                    }
                    break;
                case DATETIME:
                    if (kind == Literal.Kind.STRING) {
                        return SqlDateTime.parse(text);
                    }
                    break;
                case TIMESTAMP:
                    if (kind == Literal.Kind.STRING) {
                        return Instant.parse(text);
                    }
                    break;
                case TIMESTAMP_TZ:
                    if (kind == Literal.Kind.STRING) {
                        return OffsetDateTime.parse(text);
                    }
                    break;
                default:
                    comparable = false;
            }
        } catch (IllegalArgumentException | DateTimeParseException e) {
            // fall through to the common message, which names the literal and the type
        }
        if (!comparable) {
            throw new IllegalArgumentException(
                    "column type cannot be compared: column="
                            + column.name()
                            + ", type="
                            + column.type());
        }
        throw new IllegalArgumentException(
                "literal does not fit column type: column="
                        + column.name()
                        + ", type="
                        + column.type()
                        + ", value="
                        + text);
    }

    /** Orders a non-null row value against a converted literal: negative, zero or positive. */
    static int compare(Object value, Object literal) {
        if (literal instanceof BigInteger || literal instanceof BigDecimal) {
            return compareNumber(value, literal);
        }
        if (literal instanceof String) {
            return compareCodePoints((String) value, (String) literal);
        }
        if (literal instanceof Boolean) {
            return Boolean.compare((Boolean) value, (Boolean) literal);
        }
        if (literal instanceof SqlDate) {
            return compareDate((SqlDate) value, (SqlDate) literal);
        }
        if (literal instanceof SqlDateTime) {
            SqlDateTime a = (SqlDateTime) value;
            SqlDateTime b = (SqlDateTime) literal;
            int byDate = compareDate(a.date(), b.date());
            return byDate != 0 ? byDate : Long.compare(a.nanoOfDay(), b.nanoOfDay());
        }
        if (literal instanceof Instant) {
            return ((Instant) value).compareTo((Instant) literal);
        }
        if (literal instanceof OffsetDateTime) {
            return OffsetDateTime.timeLineOrder()
                    .compare((OffsetDateTime) value, (OffsetDateTime) literal);
        }
        throw new IllegalStateException("unexpected literal: value=" + literal);
    }

    private static int compareNumber(Object value, Object literal) {
        if (value instanceof Long && literal instanceof BigInteger) {
            BigInteger big = (BigInteger) literal;
            // The common case, a BIGINT against an integer literal, compares without allocating.
            return big.bitLength() < 64
                    ? Long.compare((Long) value, big.longValue())
                    : -big.signum();
        }
        if (value instanceof BigInteger && literal instanceof BigInteger) {
            return ((BigInteger) value).compareTo((BigInteger) literal);
        }
        BigDecimal right =
                literal instanceof BigDecimal
                        ? (BigDecimal) literal
                        : new BigDecimal((BigInteger) literal);
        // Floats compare with the literal rounded to their own precision, as a SQL engine would.
        if (value instanceof Float) {
            return Float.compare((Float) value, right.floatValue());
        }
        if (value instanceof Double) {
            return Double.compare((Double) value, right.doubleValue());
        }
        BigDecimal left =
                value instanceof BigDecimal
                        ? (BigDecimal) value
                        : value instanceof BigInteger
                                ? new BigDecimal((BigInteger) value)
                                : BigDecimal.valueOf(((Number) value).longValue());
        return left.compareTo(right);
    }

    /** Code point order, so characters outside the BMP sort after all BMP characters. */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    private static int compareDate(SqlDate a, SqlDate b) {
        int c = Integer.compare(a.year(), b.year());
        if (c == 0) {
            c = Integer.compare(a.month(), b.month());
        }
        return c != 0 ? c : Integer.compare(a.day(), b.day());
    }
}
