package io.changegrid.events.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.schema.Column;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.TemporalText;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.BitSet;
import java.util.Map;

/**
 * The JSON form of each value type, in both directions. Chosen so that every value survives a round
 * trip exactly and so that consumers in other languages need no changegrid code:
 *
 * <pre>
 * BOOLEAN                 true / false
 * INT64, UINT64           number (UINT64 up to 18446744073709551615)
 * FLOAT32, FLOAT64        number; "NaN", "Infinity", "-Infinity" as strings
 * DECIMAL                 string, scale kept: "12.3400"; exponent form only for negative scales
 * BITS                    string of 0 and 1, most significant bit first, column width long
 * DATE                    "2024-02-29", zero dates as "0000-00-00"
 * TIME                    "-838:59:59.5"   (signed duration; fraction without trailing zeros)
 * DATETIME                "2024-02-29T23:59:59.123456"
 * TIMESTAMP               "2024-02-29T23:59:59.123456Z"
 * TIMESTAMP_TZ            "2024-02-29T23:59:59.123456+05:30"
 * STRING, JSON            string (JSON documents as their text)
 * BYTES                   base64 string
 * GEOMETRY                {"srid": 4326, "wkb": base64 string}
 * NULL                    null
 * </pre>
 */
final class JsonValues {

    private JsonValues() {}

    static void write(JsonGenerator out, Column column, Object value) throws IOException {
        if (value == null) {
            out.writeNull();
            return;
        }
        switch (column.type()) {
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case INT64 -> out.writeNumber(((Number) value).longValue());
            case UINT64 -> out.writeNumber(unsigned(value));
            case FLOAT32 -> {
                float f = (Float) value;
                if (Float.isFinite(f)) {
                    out.writeNumber(f);
                } else {
                    out.writeString(Float.toString(f));
                }
            }
            case FLOAT64 -> {
                double d = (Double) value;
                if (Double.isFinite(d)) {
                    out.writeNumber(d);
                } else {
                    out.writeString(Double.toString(d));
                }
            }
            case DECIMAL -> {
                BigDecimal decimal = (BigDecimal) value;
                out.writeString(
                        decimal.scale() >= 0 ? decimal.toPlainString() : decimal.toString());
            }
            case BITS -> out.writeString(bitsText((BitSet) value, column.width()));
            case DATE, DATETIME, TIMESTAMP, TIMESTAMP_TZ -> out.writeString(value.toString());
            case TIME -> out.writeString(TemporalText.formatTime((Duration) value));
            case STRING, JSON -> out.writeString((String) value);
            case BYTES -> out.writeString(Base64.getEncoder().encodeToString((byte[]) value));
            case GEOMETRY -> {
                Geometry geometry = (Geometry) value;
                out.writeStartObject();
                out.writeNumberField("srid", geometry.srid());
                out.writeStringField("wkb", Base64.getEncoder().encodeToString(geometry.wkb()));
                out.writeEndObject();
            }
        }
    }

    /**
     * Converts a value parsed from JSON (a {@link String}, {@link Boolean}, {@link NumberText},
     * {@link Map} or {@code null}) into the canonical Java value of the column's type.
     *
     * @param field the JSON path of the value, for error messages
     * @throws MalformedJsonException naming the field, the type and the text
     */
    static Object read(Column column, Object raw, String field) {
        if (raw == null) {
            return null;
        }
        try {
            return switch (column.type()) {
                case BOOLEAN -> (Boolean) raw;
                case INT64 -> Long.parseLong(number(raw));
                case UINT64 -> {
                    BigInteger value = new BigInteger(number(raw));
                    if (value.signum() < 0 || value.bitLength() > 64) {
                        throw new NumberFormatException("out of UINT64 range");
                    }
                    yield value;
                }
                case FLOAT32 -> Float.parseFloat(numberOrSpecial(raw));
                case FLOAT64 -> Double.parseDouble(numberOrSpecial(raw));
                case DECIMAL -> new BigDecimal((String) raw);
                case BITS -> parseBits((String) raw);
                case DATE -> SqlDate.parse((String) raw);
                case TIME -> TemporalText.parseTime((String) raw);
                case DATETIME -> SqlDateTime.parse((String) raw);
                case TIMESTAMP -> Instant.parse((String) raw);
                case TIMESTAMP_TZ -> OffsetDateTime.parse((String) raw);
                case STRING, JSON -> (String) raw;
                case BYTES -> Base64.getDecoder().decode((String) raw);
                case GEOMETRY -> {
                    Map<?, ?> object = (Map<?, ?>) raw;
                    if (object.size() != 2) {
                        throw new IllegalArgumentException("geometry needs exactly srid and wkb");
                    }
                    int srid = Integer.parseInt(number(object.get("srid")));
                    yield new Geometry(
                            srid, Base64.getDecoder().decode((String) object.get("wkb")));
                }
            };
        } catch (ClassCastException
                | NullPointerException
                | IllegalArgumentException
                | DateTimeException e) {
            throw new MalformedJsonException(
                    "value does not fit column type: field="
                            + field
                            + ", type="
                            + column.type()
                            + ", text="
                            + raw,
                    e);
        }
    }

    /** A JSON number kept as its text, so that no digit is lost before its type is known. */
    record NumberText(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static String number(Object raw) {
        return ((NumberText) raw).text();
    }

    private static String numberOrSpecial(Object raw) {
        if (raw instanceof String special) {
            if (!special.equals("NaN")
                    && !special.equals("Infinity")
                    && !special.equals("-Infinity")) {
                throw new IllegalArgumentException("not a number: " + special);
            }
            return special;
        }
        return number(raw);
    }

    private static BigInteger unsigned(Object value) {
        if (value instanceof BigInteger big) {
            return big;
        }
        long bits = (Long) value;
        return new BigInteger(Long.toUnsignedString(bits));
    }

    private static String bitsText(BitSet bits, int width) {
        int length = Math.max(Math.max(width, bits.length()), 1);
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[length - 1 - i] = bits.get(i) ? '1' : '0';
        }
        return new String(text);
    }

    private static BitSet parseBits(String text) {
        int length = text.length();
        if (length == 0) {
            throw new IllegalArgumentException("empty bit string");
        }
        BitSet bits = new BitSet(length);
        for (int i = 0; i < length; i++) {
            char c = text.charAt(length - 1 - i);
            if (c == '1') {
                bits.set(i);
            } else if (c != '0') {
                throw new IllegalArgumentException("not a bit: " + c);
            }
        }
        return bits;
    }
}
