package io.changegrid.fetchers.goldengate;

/**
 * A GoldenGate trail position as the JSON formatter writes it in {@code pos}: the trail file's
 * sequence number and the record's RBA (byte offset in that trail file), each as 10 zero-padded
 * digits. Its SCN is {@code sequence << 32 | rba}, as a binlog file number and offset make the
 * MySQL SCN: increasing along the trail and the same for every reader of the same files.
 */
final class TrailPosition {

    /** The digits of {@code pos}: 10 for the sequence number, 10 for the RBA. */
    static final int DIGITS = 20;

    private TrailPosition() {}

    /**
     * The SCN of a {@code pos} text.
     *
     * @throws IllegalArgumentException naming the text if it is not 20 digits, or its sequence
     *     number or RBA does not fit (sequence below 2^31, RBA below 2^32)
     */
    static long scn(CharSequence pos) {
        if (pos.length() != DIGITS) {
            throw new IllegalArgumentException(
                    "pos is not 20 digits (10 sequence + 10 RBA): pos=" + pos);
        }
        long sequence = digits(pos, 0, 10);
        long rba = digits(pos, 10, 20);
        if (sequence >= 1L << 31 || rba >= 1L << 32) {
            throw new IllegalArgumentException(
                    "pos out of range (sequence < 2^31, RBA < 2^32): pos=" + pos);
        }
        return sequence << 32 | rba;
    }

    /** The {@code pos} text of an SCN, for messages and resume positions. */
    static String text(long scn) {
        String sequence = Long.toString(scn >>> 32);
        String rba = Long.toString(scn & 0xFFFF_FFFFL);
        return "0".repeat(10 - sequence.length()) + sequence + "0".repeat(10 - rba.length()) + rba;
    }

    private static long digits(CharSequence text, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("pos is not 20 digits: pos=" + text);
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
