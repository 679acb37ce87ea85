package io.changegrid.fetchers.mysql;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates the cells of MariaDB's compressed columns ({@code COMPRESSED}, MariaDB 10.3+), which the
 * binlog carries as the table stores them (MariaDB's {@code sql/field_comp.cc}):
 *
 * <pre>
 *   empty value:   no bytes at all
 *   stored as is:  0x00, then the value's bytes (values under column_compression_threshold)
 *   compressed:    header, original length, deflate data
 *     header  bit 7    1 = compressed
 *             bit 3    1 = raw deflate, 0 = zlib-wrapped (column_compression_zlib_wrap=ON)
 *             bits 0-2 how many bytes the original length takes (1..4)
 *     original length, big-endian
 * </pre>
 *
 * <p>Stateless; thread-safe. A cell that does not follow this layout is refused with what is wrong
 * named, never passed on half-read.
 */
final class CompressedCells {

    private static final int COMPRESSED = 0x80;
    private static final int RAW_DEFLATE = 0x08;
    private static final int LENGTH_BYTES = 0x07;

    private CompressedCells() {}

    /**
     * The value a compressed cell holds.
     *
     * @throws IllegalArgumentException naming the header, lengths and what did not fit
     */
    static byte[] inflate(byte[] cell) {
        if (cell.length == 0) {
            return cell;
        }
        int header = cell[0] & 0xFF;
        if ((header & COMPRESSED) == 0) {
            if (header != 0) {
                throw new IllegalArgumentException(
                        "compressed cell has an unknown header: header=0x"
                                + Integer.toHexString(header));
            }
            return Arrays.copyOfRange(cell, 1, cell.length);
        }
        int lengthBytes = header & LENGTH_BYTES;
        if (lengthBytes < 1 || lengthBytes > 4 || cell.length < 1 + lengthBytes) {
            throw new IllegalArgumentException(
                    "compressed cell has a malformed header: header=0x"
                            + Integer.toHexString(header)
                            + ", cellBytes="
                            + cell.length);
        }
        long length = 0;
        for (int i = 1; i <= lengthBytes; i++) {
            length = length << 8 | (cell[i] & 0xFF);
        }
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "compressed cell longer than a Java array: originalLength=" + length);
        }
        byte[] value = new byte[(int) length];
        Inflater inflater = new Inflater((header & RAW_DEFLATE) != 0);
        try {
            inflater.setInput(cell, 1 + lengthBytes, cell.length - 1 - lengthBytes);
            int filled = 0;
            while (filled < value.length && !inflater.finished()) {
                int n = inflater.inflate(value, filled, value.length - filled);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                filled += n;
            }
            if (filled != value.length) {
                throw new IllegalArgumentException(
                        "compressed cell inflates to fewer bytes than its header says:"
                                + " originalLength="
                                + length
                                + ", inflated="
                                + filled);
            }
            return value;
        } catch (DataFormatException e) {
            throw new IllegalArgumentException(
                    "compressed cell is not deflate data: header=0x"
                            + Integer.toHexString(header)
                            + ", reason="
                            + e.getMessage(),
                    e);
        } finally {
            inflater.end();
        }
    }
}
