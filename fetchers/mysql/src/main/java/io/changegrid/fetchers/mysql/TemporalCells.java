package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

/**
 * Reads the binlog's temporal cells into changegrid's lossless values. The library's own readers
 * turn them into {@code java.util.Date}s or epoch numbers, which loses zero dates ({@code
 * 0000-00-00}, {@code 2024-00-15}), negative and over-24-hour TIMEs, and YEAR 0000; these follow
 * the server's storage formats ({@code my_time_packed_from_binary} and friends) exactly.
 */
final class TemporalCells {

    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long TIMEF_INT_OFS = 0x80_0000L;
    private static final long TIMEF_OFS = 0x8000_0000_0000L;
    private static final long DATETIMEF_INT_OFS = 0x80_0000_0000L;

    private TemporalCells() {}

    /** True for the cell types read here. */
    static boolean handles(ColumnType type) {
        return switch (type) {
            case DATE, TIME, TIME_V2, DATETIME, DATETIME_V2, TIMESTAMP, TIMESTAMP_V2, YEAR -> true;
            default -> false;
        };
    }

    static Serializable read(ColumnType type, int meta, ByteArrayInputStream in)
            throws IOException {
        return switch (type) {
            case DATE -> date(in.readInteger(3));
            case TIME -> oldTime(in.readInteger(3));
            case TIME_V2 -> timeV2(meta, in);
            case DATETIME -> oldDateTime(in.readLong(8));
            case DATETIME_V2 -> dateTimeV2(meta, in);
            case TIMESTAMP -> Instant.ofEpochSecond(in.readLong(4));
            case TIMESTAMP_V2 -> {
                long seconds = bigEndian(in, 4);
                yield Instant.ofEpochSecond(seconds, fractionMicros(meta, in) * NANOS_PER_MICRO);
            }
            case YEAR -> {
                int value = in.readInteger(1);
                yield value == 0 ? 0L : 1900L + value;
            }
            default -> throw new IllegalArgumentException("not a temporal cell: type=" + type);
        };
    }

    /** DATE: 3 bytes little-endian, {@code year << 9 | month << 5 | day}. */
    static SqlDate date(int packed) {
        return new SqlDate(packed >>> 9, (packed >>> 5) & 0x0F, packed & 0x1F);
    }

    /** Old TIME: signed 3-byte {@code HHMMSS} in decimal digits. */
    private static Duration oldTime(int raw) {
        int value = (raw << 8) >> 8;
        boolean negative = value < 0;
        int magnitude = Math.abs(value);
        long seconds =
                (magnitude / 10000) * 3600L + (magnitude / 100 % 100) * 60L + magnitude % 100;
        return Duration.ofSeconds(negative ? -seconds : seconds);
    }

    /** TIME2: 3 bytes big-endian of sign, hour, minute, second, then 0..3 bytes of fraction. */
    static Duration timeV2(int decimals, ByteArrayInputStream in) throws IOException {
        long packed;
        switch (decimals) {
            case 0 -> packed = (bigEndian(in, 3) - TIMEF_INT_OFS) << 24;
            case 1, 2 -> {
                long intPart = bigEndian(in, 3) - TIMEF_INT_OFS;
                long frac = in.read() & 0xFF;
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x100;
                }
                packed = (intPart << 24) + frac * 10_000;
            }
            case 3, 4 -> {
                long intPart = bigEndian(in, 3) - TIMEF_INT_OFS;
                long frac = bigEndian(in, 2);
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x10000;
                }
                packed = (intPart << 24) + frac * 100;
            }
            case 5, 6 -> packed = bigEndian(in, 6) - TIMEF_OFS;
            default ->
                    throw new IOException("TIME2 with impossible precision: decimals=" + decimals);
        }
        boolean negative = packed < 0;
        long magnitude = Math.abs(packed);
        long hms = magnitude >> 24;
        long micros = magnitude & 0xFF_FFFFL;
        long seconds = ((hms >> 12) & 0x3FF) * 3600 + ((hms >> 6) & 0x3F) * 60 + (hms & 0x3F);
        long nanos = (seconds * 1_000_000L + micros) * NANOS_PER_MICRO;
        return Duration.ofNanos(negative ? -nanos : nanos);
    }

    /** Old DATETIME: 8 bytes little-endian {@code YYYYMMDDhhmmss} in decimal digits. */
    private static SqlDateTime oldDateTime(long value) {
        long date = value / 1_000_000;
        long time = value % 1_000_000;
        SqlDate day =
                new SqlDate((int) (date / 10000), (int) (date / 100 % 100), (int) (date % 100));
        long seconds = (time / 10000) * 3600 + (time / 100 % 100) * 60 + time % 100;
        return new SqlDateTime(day, seconds * 1_000_000_000L);
    }

    /**
     * DATETIME2: 5 bytes big-endian {@code sign | year*13+month | day | hour | minute | second}.
     */
    static SqlDateTime dateTimeV2(int decimals, ByteArrayInputStream in) throws IOException {
        long stored = bigEndian(in, 5);
        int length = (decimals + 1) / 2;
        long micros = fractionMicros(length, bigEndian(in, length));
        return new SqlDateTime(date(dateTimeV2Date(stored)), dateTimeV2NanoOfDay(stored, micros));
    }

    /** The date of DATETIME2's five stored bytes, packed as DATE packs it ({@link #date}). */
    static int dateTimeV2Date(long stored) {
        long ymd = (stored - DATETIMEF_INT_OFS) >> 17;
        long yearMonth = ymd >> 5;
        return (int) ((yearMonth / 13) << 9 | (yearMonth % 13) << 5 | (ymd & 0x1F));
    }

    /** The time of day of DATETIME2's five stored bytes and its fraction, in nanoseconds. */
    static long dateTimeV2NanoOfDay(long stored, long micros) {
        long hms = (stored - DATETIMEF_INT_OFS) & 0x1_FFFFL;
        long seconds = (hms >> 12) * 3600 + ((hms >> 6) & 0x3F) * 60 + (hms & 0x3F);
        return (seconds * 1_000_000L + micros) * NANOS_PER_MICRO;
    }

    /** The fractional seconds that follow TIMESTAMP2 and DATETIME2, as microseconds. */
    private static long fractionMicros(int decimals, ByteArrayInputStream in) throws IOException {
        int length = (decimals + 1) / 2;
        return fractionMicros(length, bigEndian(in, length));
    }

    /** A stored fraction of {@code length} (0..3) bytes, as microseconds. */
    static long fractionMicros(int length, long fraction) {
        return switch (length) {
            case 0 -> 0;
            case 1 -> fraction * 10_000;
            case 2 -> fraction * 100;
            default -> fraction;
        };
    }

    private static long bigEndian(ByteArrayInputStream in, int bytes) throws IOException {
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("binlog cell truncated: needed=" + bytes);
            }
            value = (value << 8) | b;
        }
        return value;
    }
}
