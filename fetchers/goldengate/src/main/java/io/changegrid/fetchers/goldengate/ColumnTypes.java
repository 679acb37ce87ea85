package io.changegrid.fetchers.goldengate;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.ValueType;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value type of a column declared by name: an Oracle type as the dictionary spells it, or a
 * changegrid value type written {@code value:<type>} (or by its bare name where Oracle has no type
 * of that name). The JSON formatter carries no SQL types, so this is where they come from.
 */
final class ColumnTypes {

    private static final Pattern NUMBER =
            Pattern.compile("NUMBER\\s*\\(\\s*(\\d+)\\s*(?:,\\s*(-?\\d+)\\s*)?\\)");

    private ColumnTypes() {}

    /**
     * A column of the declared type.
     *
     * @throws IllegalArgumentException naming the column and type when the type is not carried
     */
    static Column column(String name, String declared, boolean nullable) {
        String type = declared.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        ValueType valueType = valueType(type);
        if (valueType == null) {
            throw new IllegalArgumentException(
                    "column type the fetcher cannot carry: column=" + name + ", type=" + declared);
        }
        return new Column(name, valueType, declared.trim(), nullable, 0);
    }

    private static ValueType valueType(String type) {
        if (type.startsWith("VALUE:")) {
            return byValueTypeName(type.substring(6));
        }
        Matcher number = NUMBER.matcher(type);
        if (number.matches()) {
            int precision = Integer.parseInt(number.group(1));
            int scale = number.group(2) == null ? 0 : Integer.parseInt(number.group(2));
            return scale == 0 && precision <= 18 ? ValueType.INT64 : ValueType.DECIMAL;
        }
        String base = type.replaceAll("\\s*\\(.*?\\)", "");
        return switch (base) {
            case "NUMBER", "INTEGER", "INT", "SMALLINT", "DECIMAL", "NUMERIC" -> ValueType.DECIMAL;
            case "BINARY_FLOAT" -> ValueType.FLOAT32;
            case "BINARY_DOUBLE", "FLOAT", "REAL", "DOUBLE PRECISION" -> ValueType.FLOAT64;
            case "VARCHAR2",
                    "NVARCHAR2",
                    "VARCHAR",
                    "CHAR",
                    "NCHAR",
                    "CLOB",
                    "NCLOB",
                    "LONG",
                    "ROWID",
                    "UROWID",
                    "XMLTYPE",
                    "INTERVAL YEAR TO MONTH" ->
                    ValueType.STRING;
            case "RAW", "LONG RAW", "BLOB" -> ValueType.BYTES;
            case "DATE", "TIMESTAMP" -> ValueType.DATETIME; // Oracle's DATE holds a time of day
            case "TIMESTAMP WITH TIME ZONE" -> ValueType.TIMESTAMP_TZ;
            case "TIMESTAMP WITH LOCAL TIME ZONE" -> ValueType.TIMESTAMP;
            case "INTERVAL DAY TO SECOND" -> ValueType.TIME;
            default -> byValueTypeName(base);
        };
    }

    private static ValueType byValueTypeName(String name) {
        try {
            ValueType type = ValueType.valueOf(name.replace('-', '_'));
            // Bit strings need a width and geometries a layout the JSON formatter does not give.
            return type == ValueType.BITS || type == ValueType.GEOMETRY ? null : type;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
