package io.changegrid.policy.transform;

import java.math.BigDecimal;
import java.util.HexFormat;

/** The text of a value that masking works on: plain decimals, hex bytes, else {@code toString}. */
final class ValueText {

    private ValueText() {}

    static String of(Object value) {
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        if (value instanceof byte[]) {
            return HexFormat.of().formatHex((byte[]) value);
        }
        return String.valueOf(value);
    }
}
