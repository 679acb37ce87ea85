package io.changegrid.events.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.schema.UnknownSchemaException;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the JSON form that {@link EventJsonWriter} writes back into a {@link ChangeEvent}, typing
 * every value by the schema the event names. Fields may come in any order; unknown fields are
 * ignored so that newer writers can add some.
 *
 * <p>Thread-safe: holds only the registry.
 */
public final class EventJsonReader {

    private static final JsonFactory JSON = new JsonFactory();

    private final SchemaRegistry registry;

    public EventJsonReader(SchemaRegistry registry) {
        this.registry = registry;
    }

    /** Reads one event from a JSON text. */
    public ChangeEvent read(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            parser.nextToken();
            return read(parser);
        } catch (IOException e) {
            throw new MalformedJsonException("not a JSON event: " + e.getMessage(), e);
        }
    }

    /**
     * Reads one event; the parser must be on the event's START_OBJECT, and is left on its
     * END_OBJECT.
     *
     * @throws MalformedJsonException naming the field and the offending text
     */
    public ChangeEvent read(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new MalformedJsonException(
                    "event must be a JSON object: token=" + parser.currentToken());
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            fields.put(name, readRaw(parser));
        }
        return toEvent(fields);
    }

    private ChangeEvent toEvent(Map<String, Object> fields) {
        Operation op = operation(fields);
        TableSchema schema = null;
        if (op.isRowChange() || op == Operation.SCHEMA_CHANGE) {
            int tableId = (int) longField(fields, "tableId");
            int version = (int) longField(fields, "schemaVersion");
            try {
                schema = registry.schema(tableId, version);
            } catch (UnknownSchemaException e) {
                throw new MalformedJsonException(e.getMessage(), e);
            }
            checkName(fields, "db", schema.database());
            checkName(fields, "table", schema.table());
        }
        Object[] before = image(fields, "before", schema);
        Object[] after = image(fields, "after", schema);
        Object ddl = fields.get("ddl");
        if (ddl != null && !(ddl instanceof String)) {
            throw new MalformedJsonException("field must be a string: field=ddl, text=" + ddl);
        }
        return new ChangeEvent(
                (int) longField(fields, "source"),
                longField(fields, "scn"),
                (int) longField(fields, "index"),
                commitTime(fields),
                stringField(fields, "txn"),
                op,
                schema,
                before,
                after,
                (String) ddl);
    }

    private static Object[] image(Map<String, Object> fields, String name, TableSchema schema) {
        Object raw = fields.get(name);
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Map<?, ?> columns) || schema == null) {
            throw new MalformedJsonException(
                    "image must be an object of a row change: field=" + name);
        }
        Object[] row = new Object[schema.columnCount()];
        for (Map.Entry<?, ?> entry : columns.entrySet()) {
            int index = schema.indexOf((String) entry.getKey());
            if (index < 0) {
                throw new MalformedJsonException(
                        "column not in schema: field="
                                + name
                                + "."
                                + entry.getKey()
                                + ", table="
                                + schema.qualifiedName()
                                + ", version="
                                + schema.version());
            }
            row[index] =
                    JsonValues.read(
                            schema.column(index), entry.getValue(), name + "." + entry.getKey());
        }
        if (columns.size() != row.length) {
            throw new MalformedJsonException(
                    "image lacks columns: field="
                            + name
                            + ", expected="
                            + row.length
                            + ", found="
                            + columns.size());
        }
        return row;
    }

    private static Operation operation(Map<String, Object> fields) {
        String name = stringField(fields, "op");
        try {
            return Operation.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new MalformedJsonException("unknown operation: field=op, text=" + name, e);
        }
    }

    private static long commitTime(Map<String, Object> fields) {
        String text = stringField(fields, "commitTime");
        try {
            Instant instant = Instant.parse(text);
            return Math.addExact(
                    Math.multiplyExact(instant.getEpochSecond(), 1_000_000L),
                    instant.getNano() / 1_000L);
        } catch (DateTimeException | ArithmeticException e) {
            throw new MalformedJsonException("not an instant: field=commitTime, text=" + text, e);
        }
    }

    private static void checkName(Map<String, Object> fields, String field, String expected) {
        Object actual = fields.get(field);
        if (actual != null && !expected.equals(actual)) {
            throw new MalformedJsonException(
                    "name does not match schema: field="
                            + field
                            + ", text="
                            + actual
                            + ", schema="
                            + expected);
        }
    }

    private static long longField(Map<String, Object> fields, String name) {
        Object raw = fields.get(name);
        if (!(raw instanceof JsonValues.NumberText number)) {
            throw new MalformedJsonException(
                    "field must be a number: field=" + name + ", text=" + raw);
        }
        try {
            return Long.parseLong(number.text());
        } catch (NumberFormatException e) {
            throw new MalformedJsonException("not an integer: field=" + name + ", text=" + raw, e);
        }
    }

    private static String stringField(Map<String, Object> fields, String name) {
        Object raw = fields.get(name);
        if (!(raw instanceof String text)) {
            throw new MalformedJsonException(
                    "field must be a string: field=" + name + ", text=" + raw);
        }
        return text;
    }

    /**
     * Reads the value at the parser's current token as String, Boolean, NumberText, Map or null.
     */
    private static Object readRaw(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        return switch (token) {
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT ->
                    new JsonValues.NumberText(parser.getText());
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            case START_OBJECT -> {
                Map<String, Object> object = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    object.put(name, readRaw(parser));
                }
                yield object;
            }
            default ->
                    throw new MalformedJsonException(
                            "unexpected JSON token: token="
                                    + token
                                    + ", field="
                                    + parser.currentName());
        };
    }
}
