package io.changegrid.fetchers.mysql;

import java.util.HexFormat;

/**
 * A binlog cell as a refusal message shows it: bytes in hex ({@code 0x98}), the first {@value
 * #MAX_BYTES} of a longer value followed by its length, anything else as its text.
 */
final class CellText {

    private static final int MAX_BYTES = 64;

    private CellText() {}

    static String of(Object cell) {
        if (cell instanceof byte[] bytes) {
            String hex = HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, MAX_BYTES));
            return bytes.length <= MAX_BYTES
                    ? "0x" + hex
                    : "0x" + hex + "...(" + bytes.length + " bytes)";
        }
        return String.valueOf(cell);
    }
}
