package io.changegrid.appliers.typemap;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.regex.Pattern;

/** Conversions of event values into forms JDBC drivers accept, shared by the dialects. */
final class Values {

    private Values() {}

    /**
     * A MySQL/MariaDB TIMESTAMP column's declaration, {@code timestamp} or {@code timestamp(n)}.
     */
    private static final Pattern MYSQL_TIMESTAMP =
            Pattern.compile("(?i)\\s*timestamp\\s*(\\(\\s*\\d\\s*\\))?\\s*");

    /**
     * Whether a TIMESTAMP value is MySQL's zero timestamp ({@code 0000-00-00 00:00:00}): epoch
     * second 0 of a MySQL/MariaDB TIMESTAMP column, which no valid value of such a column has (its
     * range starts one second later). Of other sources' columns epoch 0 is a valid instant.
     */
    static boolean isZeroTimestamp(Column column, Instant value) {
        return value.getEpochSecond() == 0
                && value.getNano() == 0
                && MYSQL_TIMESTAMP.matcher(column.sourceType()).matches();
    }

    /** The bits, most significant first, exactly {@code width} characters ({@code 0}/{@code 1}). */
    static String bitText(BitSet bits, int width) {
        int n = Math.max(width, bits.length());
        StringBuilder text = new StringBuilder(n);
        for (int i = n - 1; i >= 0; i--) {
            text.append(bits.get(i) ? '1' : '0');
        }
        return text.toString();
    }

    /** The bits as a big-endian byte string of {@code ceil(width / 8)} bytes (MySQL's BIT form). */
    static byte[] bitBytes(BitSet bits, int width) {
        int n = Math.max(1, (Math.max(width, bits.length()) + 7) / 8);
        byte[] bytes = new byte[n];
        for (int i = bits.nextSetBit(0); i >= 0; i = bits.nextSetBit(i + 1)) {
            bytes[n - 1 - i / 8] |= (byte) (1 << (i % 8));
        }
        return bytes;
    }

    /** MySQL's stored geometry form: the SRID as 4 bytes little-endian, then the WKB. */
    static byte[] geometryBytes(Geometry geometry) {
        return ByteBuffer.allocate(4 + geometry.wkb().length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(geometry.srid())
                .put(geometry.wkb())
                .array();
    }

    /**
     * A signed duration in whole microseconds.
     *
     * @throws ValueNotRepresentableException for sub-microsecond parts
     */
    static long micros(Duration duration, String where) {
        long nanos = duration.toNanos();
        if (nanos % 1000 != 0) {
            throw new ValueNotRepresentableException(
                    where + " (finer than microseconds)", duration);
        }
        return nanos / 1000;
    }

    /**
     * A timestamp with an offset that PostgreSQL's {@code timestamptz} holds exactly: whole
     * microseconds (Oracle's TIMESTAMP(9) WITH TIME ZONE may carry nanoseconds; rounding them would
     * change the value).
     *
     * @throws ValueNotRepresentableException for sub-microsecond parts
     */
    static java.time.OffsetDateTime exactMicros(java.time.OffsetDateTime value, String where) {
        if (value.getNano() % 1000 != 0) {
            throw new ValueNotRepresentableException(
                    where + " (finer than microseconds: timestamptz keeps microseconds)", value);
        }
        return value;
    }

    /** {@code [-]HHH:MM:SS.ffffff}, MySQL's TIME text. */
    static String timeText(Duration duration) {
        long nanos = duration.toNanos();
        StringBuilder text = new StringBuilder(18);
        if (nanos < 0) {
            text.append('-');
            nanos = -nanos;
        }
        long seconds = nanos / 1_000_000_000L;
        long fraction = (nanos % 1_000_000_000L) / 1000;
        text.append(seconds / 3600).append(':');
        pad(text, (seconds / 60) % 60, 2);
        text.append(':');
        pad(text, seconds % 60, 2);
        text.append('.');
        pad(text, fraction, 6);
        return text.toString();
    }

    static void pad(StringBuilder text, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            text.append('0');
        }
        text.append(digits);
    }
}
