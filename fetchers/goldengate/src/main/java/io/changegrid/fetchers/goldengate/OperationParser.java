package io.changegrid.fetchers.goldengate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.util.Arrays;

/**
 * Parses one line of the JSON formatter's operation records with Jackson's streaming parser,
 * straight into an {@link OperationRecord} and its table's reused image arrays:
 *
 * <pre>{@code
 * {"table":"SHOP.ORDERS","op_type":"U","op_ts":"2026-11-26 10:00:00.000000",
 *  "current_ts":"2026-11-26T10:00:01.120000","pos":"00000000030000004096",
 *  "primary_keys":["ID"],"tokens":{"TK-XID":"7.12.345","TK-CSN":"918273"},
 *  "before":{"ID":42,"STATUS":"NEW"},"after":{"ID":42,"STATUS":"PAID","NOTE_isMissing":true}}
 * }</pre>
 *
 * <p>The formatter writes the metacolumns before the images; {@code table} must come before {@code
 * before}/{@code after}, so that values are read with their column's type as they stream by. A
 * column {@code C} is missing from an image when it is absent or {@code C_isMissing} is true; a
 * JSON null is a NULL. Problems are {@link IllegalArgumentException}s saying what; the caller adds
 * file and offset.
 *
 * <p>Not thread-safe: one per fetcher.
 */
final class OperationParser {

    /** Finds the binding of a table named in a record. */
    @FunctionalInterface
    interface TableResolver {
        /**
         * @return the table's binding, or {@link TableBinding#UNCAPTURED}
         * @throws IllegalArgumentException for a captured table with no known schema
         */
        TableBinding resolve(String qualifiedName);
    }

    private static final JsonFactory JSON = new JsonFactory();
    private static final String MISSING = "_isMissing";

    private final String xidToken;
    private final String csnToken;
    private final String txindField;

    /**
     * @param txindField the transaction indicator's field, or empty
     */
    OperationParser(String xidToken, String csnToken, String txindField) {
        this.xidToken = xidToken;
        this.csnToken = csnToken;
        this.txindField = txindField;
    }

    /** The SCN of a record's {@code pos}: how the directory knows a file by its first line. */
    static long scnOf(byte[] line, int length) throws IOException {
        try (JsonParser parser = JSON.createParser(line, 0, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("record is not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                if (name.equals("pos")) {
                    return TrailPosition.scn(parser.getText());
                }
                parser.skipChildren();
            }
            throw new IllegalArgumentException("record without pos");
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Parses one line into {@code record}.
     *
     * @throws IllegalArgumentException saying what is wrong with the line
     */
    void parse(byte[] buffer, int offset, int length, TableResolver tables, OperationRecord record)
            throws IOException {
        record.clear();
        try (JsonParser parser = JSON.createParser(buffer, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("record is not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "table" -> {
                        record.table = scalar(parser, value, name);
                        record.binding = tables.resolve(record.table);
                    }
                    case "op_type" -> record.opType = opType(scalar(parser, value, name));
                    case "op_ts" -> record.opTs = scalar(parser, value, name);
                    case "pos" -> record.scn = TrailPosition.scn(scalar(parser, value, name));
                    case "primary_keys" -> primaryKeys(parser, value, record);
                    case "tokens" -> tokens(parser, value, record);
                    case "before" -> record.hasBefore = image(parser, value, record, true);
                    case "after" -> record.hasAfter = image(parser, value, record, false);
                    default -> {
                        if (name.equals(txindField)) {
                            record.txind = txind(scalar(parser, value, name));
                        } else {
                            parser.skipChildren(); // current_ts and other metacolumns
                        }
                    }
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                throw new IllegalArgumentException("text after the record's JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage(), e);
        }
        if (record.table == null || record.opType == 0 || record.scn < 0) {
            throw new IllegalArgumentException(
                    "record without table, op_type or pos (metaColumnsTemplate must give all three)");
        }
    }

    private static String scalar(JsonParser parser, JsonToken value, String field)
            throws IOException {
        if (value == null || !value.isScalarValue() || value == JsonToken.VALUE_NULL) {
            throw new IllegalArgumentException("field is not a text value: field=" + field);
        }
        return parser.getText();
    }

    private static char opType(String text) {
        if (text.length() == 1) {
            char c = text.charAt(0);
            if (c == 'I' || c == 'U' || c == 'D' || c == 'T') {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "unknown op_type: value=" + text + " (expected I, U, D or T)");
    }

    private static int txind(String text) {
        return switch (text) {
            case "0", "B", "BEGIN" -> 0;
            case "1", "M", "MIDDLE" -> 1;
            case "2", "E", "END" -> 2;
            case "3", "W", "WHOLE" -> 3;
            default ->
                    throw new IllegalArgumentException(
                            "unknown transaction indicator: value=" + text + " (expected 0..3)");
        };
    }

    private static void primaryKeys(JsonParser parser, JsonToken value, OperationRecord record)
            throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new IllegalArgumentException("primary_keys is not an array");
        }
        record.hasPrimaryKeys = true;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            record.primaryKeys.add(scalar(parser, parser.currentToken(), "primary_keys"));
        }
    }

    private void tokens(JsonParser parser, JsonToken value, OperationRecord record)
            throws IOException {
        if (value != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("tokens is not an object");
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            if (name.equals(xidToken)) {
                record.xid = scalar(parser, token, "tokens." + name);
            } else if (name.equals(csnToken)) {
                record.csn = scalar(parser, token, "tokens." + name);
            } else {
                parser.skipChildren();
            }
        }
    }

    /** Reads an image into the binding's arrays; false for a JSON null image. */
    private static boolean image(
            JsonParser parser, JsonToken value, OperationRecord record, boolean before)
            throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return false;
        }
        if (value != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException((before ? "before" : "after") + " is not an object");
        }
        TableBinding binding = record.binding;
        if (binding == null) {
            throw new IllegalArgumentException(
                    "row image before the table name (table must be the first metacolumn)");
        }
        if (!binding.captured()) {
            parser.skipChildren();
            return true;
        }
        TableSchema schema = binding.schema;
        Object[] values = before ? binding.before : binding.after;
        boolean[] present = before ? binding.beforePresent : binding.afterPresent;
        boolean[] missing = before ? binding.beforeMissing : binding.afterMissing;
        Arrays.fill(values, null);
        Arrays.fill(present, false);
        Arrays.fill(missing, false);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            int index = schema.indexOf(name);
            if (index < 0 && name.endsWith(MISSING)) {
                int of = schema.indexOf(name.substring(0, name.length() - MISSING.length()));
                if (of >= 0) {
                    if (token == JsonToken.VALUE_TRUE) {
                        missing[of] = true;
                    } else if (token != JsonToken.VALUE_FALSE) {
                        throw new IllegalArgumentException("flag is not a boolean: field=" + name);
                    }
                    continue;
                }
            }
            if (index < 0) {
                throw new IllegalArgumentException(
                        "column not in the table's schema: table="
                                + schema.qualifiedName()
                                + ", column="
                                + name
                                + "; update the schema file or source.tables and restart");
            }
            try {
                values[index] = JsonCells.read(parser, schema.column(index));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "value the column cannot carry: table="
                                + schema.qualifiedName()
                                + ", column="
                                + name
                                + ", type="
                                + schema.column(index).type()
                                + ", problem="
                                + e.getMessage(),
                        e);
            }
            present[index] = true;
        }
        for (int i = 0; i < present.length; i++) {
            if (missing[i]) {
                present[i] = false;
                values[i] = null;
            }
        }
        return true;
    }
}
