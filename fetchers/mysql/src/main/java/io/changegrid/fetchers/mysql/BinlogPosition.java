package io.changegrid.fetchers.mysql;

/**
 * A position in a server's binlog: a file and a byte offset in it.
 *
 * <p>The SCN of a transaction is derived from the position where it starts: the binlog file's
 * sequence number in the high 32 bits and the offset in the low 32 (binlog files are at most 1 GiB,
 * {@code max_binlog_size}). Every relay reading the same server computes the same SCN for the same
 * transaction, and SCNs grow strictly with the binlog, across file rotations.
 *
 * @param file the binlog file name, e.g. {@code mysql-bin.000042}
 * @param offset the byte offset in that file
 */
public record BinlogPosition(String file, long offset) {

    private static final long MAX_OFFSET = 0xFFFF_FFFFL;

    public BinlogPosition {
        if (file == null || file.isEmpty()) {
            throw new IllegalArgumentException("binlog file must not be empty");
        }
        if (offset < 0 || offset > MAX_OFFSET) {
            throw new IllegalArgumentException(
                    "binlog offset out of range: file=" + file + ", offset=" + offset);
        }
        fileNumber(file);
    }

    /** This position as an SCN: {@code fileNumber << 32 | offset}. */
    public long scn() {
        return (fileNumber(file) << 32) | offset;
    }

    /** The same file at another offset. */
    public BinlogPosition at(long newOffset) {
        return new BinlogPosition(file, newOffset);
    }

    /**
     * Parses {@code file:offset} as written by {@link #toString()}.
     *
     * @throws IllegalArgumentException naming the text if it is not such a position
     */
    public static BinlogPosition parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("not a binlog position (file:offset): text=" + text);
        }
        try {
            return new BinlogPosition(
                    text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "not a binlog position (file:offset): text=" + text, e);
        }
    }

    /** The sequence number of a binlog file: the digits after its last dot. */
    static long fileNumber(String file) {
        int dot = file.lastIndexOf('.');
        if (dot < 0 || dot == file.length() - 1) {
            throw new IllegalArgumentException("binlog file has no sequence number: file=" + file);
        }
        long number = 0;
        for (int i = dot + 1; i < file.length(); i++) {
            char c = file.charAt(i);
            if (c < '0' || c > '9' || number > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "binlog file has no sequence number: file=" + file);
            }
            number = number * 10 + (c - '0');
        }
        return number;
    }

    @Override
    public String toString() {
        return file + ":" + offset;
    }
}
