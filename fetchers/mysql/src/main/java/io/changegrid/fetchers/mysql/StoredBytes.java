package io.changegrid.fetchers.mysql;

/**
 * Reads the server's storage formats from a row image's bytes in place: little-endian integers (the
 * integer types and length prefixes), big-endian integers (the packed temporal types) and the
 * packed DECIMAL format. Static and allocation-free: the per-cell work of {@link RowTranscoder}.
 */
final class StoredBytes {

    /** Bytes a group of 0..9 decimal digits takes in a packed DECIMAL. */
    private static final int[] DIGITS_TO_BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    private static final long[] POWERS_OF_TEN = new long[10];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private StoredBytes() {}

    /** An unsigned little-endian integer of 1..8 bytes (8 bytes: the raw 64 bits). */
    static long littleEndian(byte[] b, int at, int bytes) {
        // The common widths spelled out: a loop or a VarHandle costs more on this path.
        return switch (bytes) {
            case 1 -> b[at] & 0xFFL;
            case 2 -> (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8;
            case 3 -> (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16;
            case 4 ->
                    (b[at] & 0xFFL)
                            | (b[at + 1] & 0xFFL) << 8
                            | (b[at + 2] & 0xFFL) << 16
                            | (b[at + 3] & 0xFFL) << 24;
            case 8 -> // BIGINT and DOUBLE: the loop below was 6 % of a row's decode and encode
                    (b[at] & 0xFFL)
                            | (b[at + 1] & 0xFFL) << 8
                            | (b[at + 2] & 0xFFL) << 16
                            | (b[at + 3] & 0xFFL) << 24
                            | (b[at + 4] & 0xFFL) << 32
                            | (b[at + 5] & 0xFFL) << 40
                            | (b[at + 6] & 0xFFL) << 48
                            | (b[at + 7] & 0xFFL) << 56;
            default -> littleEndianLoop(b, at, bytes);
        };
    }

    /**
     * {@link #littleEndian} for the widths it does not spell out (5..7 bytes), apart so that
     * littleEndian stays within C2's inlining limit for hot methods (325 bytes of bytecode): with
     * the loop inside it was 327, and every caller paid a call per integer read.
     */
    private static long littleEndianLoop(byte[] b, int at, int bytes) {
        long value = 0;
        for (int i = bytes - 1; i >= 0; i--) {
            value = (value << 8) | (b[at + i] & 0xFF);
        }
        return value;
    }

    /** An unsigned big-endian integer of 0..8 bytes. */
    static long bigEndian(byte[] b, int at, int bytes) {
        // As littleEndian: the widths of DECIMAL groups, fractions and DATETIME2 spelled out (the
        // loop was 13 % of the fetcher's samples on a table with a DECIMAL and two temporals).
        return switch (bytes) {
            case 1 -> b[at] & 0xFFL;
            case 2 -> (b[at] & 0xFFL) << 8 | (b[at + 1] & 0xFFL);
            case 3 -> (b[at] & 0xFFL) << 16 | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL);
            case 4 ->
                    (b[at] & 0xFFL) << 24
                            | (b[at + 1] & 0xFFL) << 16
                            | (b[at + 2] & 0xFFL) << 8
                            | (b[at + 3] & 0xFFL);
            case 5 ->
                    (b[at] & 0xFFL) << 32
                            | (b[at + 1] & 0xFFL) << 24
                            | (b[at + 2] & 0xFFL) << 16
                            | (b[at + 3] & 0xFFL) << 8
                            | (b[at + 4] & 0xFFL);
            default -> {
                long value = 0;
                for (int i = 0; i < bytes; i++) {
                    value = (value << 8) | (b[at + i] & 0xFF);
                }
                yield value;
            }
        };
    }

    /**
     * The bytes a packed DECIMAL(precision, scale) takes (the server's {@code decimal_bin_size}).
     */
    static int decimalSize(int precision, int scale) {
        int integral = precision - scale;
        return (integral / 9) * 4
                + DIGITS_TO_BYTES[integral % 9]
                + (scale / 9) * 4
                + DIGITS_TO_BYTES[scale % 9];
    }

    /**
     * The unscaled value of a packed DECIMAL of at most 18 digits (the server's {@code
     * bin2decimal}): groups of nine digits in four big-endian bytes, a shorter group first and
     * last, the sign in the first bit (set: positive) and every byte inverted for negative values.
     *
     * @param meta the column's table-map metadata: precision in the low byte, scale above it
     */
    static long unscaledDecimal(byte[] b, int at, int meta) {
        int precision = meta & 0xFF;
        int scale = meta >> 8;
        int integral = precision - scale;
        long invert = (b[at] & 0x80) != 0 ? 0 : -1L;
        // Groups in order: a short leading one, nine digits in four bytes each, a short trailing
        // one. The stored sign is the top bit of the first byte, in whichever group comes first.
        long value = 0;
        boolean first = true;
        int leading = DIGITS_TO_BYTES[integral % 9];
        if (leading > 0) {
            value = group(b, at, leading, invert, true);
            at += leading;
            first = false;
        }
        for (int g = integral / 9 + scale / 9; g > 0; g--, at += 4) {
            value = value * 1_000_000_000L + group(b, at, 4, invert, first);
            first = false;
        }
        int trailingDigits = scale % 9;
        if (trailingDigits > 0) {
            value =
                    value * POWERS_OF_TEN[trailingDigits]
                            + group(b, at, DIGITS_TO_BYTES[trailingDigits], invert, first);
        }
        return invert == 0 ? value : -value;
    }

    /** One group of digits: {@code bytes} big-endian, inverted for negative values. */
    private static long group(byte[] b, int at, int bytes, long invert, boolean first) {
        long value = bigEndian(b, at, bytes) ^ (invert & ((1L << (8 * bytes)) - 1));
        return first ? value ^ (0x80L << (8 * (bytes - 1))) : value;
    }
}
