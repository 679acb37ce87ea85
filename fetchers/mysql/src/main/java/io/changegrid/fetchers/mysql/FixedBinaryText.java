package io.changegrid.fetchers.mysql;

/**
 * The text of MariaDB's fixed-size binary types, exactly as the server shows them, from the bytes
 * the binlog carries: {@code UUID} (16 bytes), {@code INET4} (4) and {@code INET6} (16). The binlog
 * logs them as fixed-length strings whose trailing zero bytes the server strips, so a cell is first
 * padded back to its size.
 *
 * <ul>
 *   <li>UUID: 32 lower-case hex digits grouped 8-4-4-4-12, in the byte order of the binlog (that of
 *       the text; checked against MariaDB 10.11 by {@code TypeMatrixIT}).
 *   <li>INET4: dotted decimal.
 *   <li>INET6: MariaDB's own form (not RFC 5952's): lower-case hex groups without leading zeros;
 *       the longest run of zero groups, even a single one, the first of equal runs, written {@code
 *       ::}; an IPv4-mapped address ({@code ::ffff:a.b.c.d}) and an IPv4-compatible one (first 96
 *       bits zero and bytes 12-13 not both zero) end in dotted decimal.
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
final class FixedBinaryText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private FixedBinaryText() {}

    static String uuid(byte[] cell) {
        byte[] b = padded(cell, 16);
        StringBuilder text = new StringBuilder(36);
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                text.append('-');
            }
            text.append(HEX[(b[i] >> 4) & 0xF]).append(HEX[b[i] & 0xF]);
        }
        return text.toString();
    }

    static String inet4(byte[] cell) {
        byte[] b = padded(cell, 4);
        return dotted(b, 0);
    }

    static String inet6(byte[] cell) {
        byte[] b = padded(cell, 16);
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (b[2 * i] & 0xFF) << 8 | (b[2 * i + 1] & 0xFF);
        }
        boolean zero96 = groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0;
        boolean mapped = zero96 && groups[4] == 0 && groups[5] == 0xFFFF;
        boolean compatible =
                zero96 && groups[4] == 0 && groups[5] == 0 && (b[12] != 0 || b[13] != 0);
        if (mapped) {
            return "::ffff:" + dotted(b, 12);
        }
        if (compatible) {
            return "::" + dotted(b, 12);
        }
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && groups[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }

    private static String dotted(byte[] b, int from) {
        return (b[from] & 0xFF)
                + "."
                + (b[from + 1] & 0xFF)
                + "."
                + (b[from + 2] & 0xFF)
                + "."
                + (b[from + 3] & 0xFF);
    }

    private static byte[] padded(byte[] cell, int size) {
        if (cell.length == size) {
            return cell;
        }
        if (cell.length > size) {
            throw new IllegalArgumentException(
                    "cell longer than its type: bytes=" + cell.length + ", size=" + size);
        }
        byte[] full = new byte[size];
        System.arraycopy(cell, 0, full, 0, cell.length);
        return full;
    }
}
