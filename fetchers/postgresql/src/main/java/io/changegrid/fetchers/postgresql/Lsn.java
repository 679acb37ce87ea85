package io.changegrid.fetchers.postgresql;

/**
 * A PostgreSQL WAL position (log sequence number): 64 bits, written {@code X/Y} with the high and
 * low 32 bits in hex. It is this source's SCN directly: a transaction's SCN is its commit LSN,
 * which is unique, increasing and the same for every reader of the server.
 *
 * @param value the unsigned 64-bit position; WAL positions stay far below 2^63 in practice
 */
record Lsn(long value) implements Comparable<Lsn> {

    Lsn {
        if (value < 0) {
            throw new IllegalArgumentException(
                    "LSN out of range: value=" + Long.toUnsignedString(value));
        }
    }

    /**
     * Parses {@code X/Y}.
     *
     * @throws IllegalArgumentException naming the text
     */
    static Lsn parse(String text) {
        int slash = text.indexOf('/');
        try {
            if (slash <= 0
                    || slash == text.length() - 1
                    || slash > 8
                    || text.length() - slash > 9) {
                throw new NumberFormatException("not X/Y");
            }
            long high = Long.parseLong(text.substring(0, slash), 16);
            long low = Long.parseLong(text.substring(slash + 1), 16);
            return new Lsn(high << 32 | low);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "not an LSN (hex X/Y, e.g. 0/16B3748): text=" + text, e);
        }
    }

    @Override
    public int compareTo(Lsn other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toHexString(value >>> 32).toUpperCase(java.util.Locale.ROOT)
                + "/"
                + Long.toHexString(value & 0xFFFF_FFFFL).toUpperCase(java.util.Locale.ROOT);
    }
}
