package io.changegrid.events.value;

import java.nio.charset.StandardCharsets;

/**
 * Text values as code that reads row images needs them. A row image handed to the frame encoder may
 * carry a STRING or JSON value as its UTF-8 bytes instead of a {@link String}: the binlog fetcher
 * passes the server's utf8mb4 bytes through undecoded, so that they are copied once, into the
 * frame. Code that compares, matches or hashes such values by their text (policies) decodes them
 * here.
 */
public final class TextValues {

    private TextValues() {}

    /** Whether values of {@code type} may arrive as UTF-8 bytes. */
    public static boolean isText(ValueType type) {
        return type == ValueType.STRING || type == ValueType.JSON;
    }

    /**
     * The value with UTF-8 bytes of a text column decoded; any other value as it is.
     *
     * @param type the column's type
     */
    public static Object decoded(ValueType type, Object value) {
        return value instanceof byte[] bytes && isText(type)
                ? new String(bytes, StandardCharsets.UTF_8)
                : value;
    }
}
