package io.changegrid.events.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of a table schema version, used to persist schema history and to serve schemas to
 * consumers that decode binary frames:
 *
 * <pre>{@code
 * {"tableId":3,"version":2,"database":"shop","table":"orders",
 *  "columns":[{"name":"id","type":"INT64","sourceType":"bigint","nullable":false,"width":0}, ...],
 *  "key":["id"]}
 * }</pre>
 */
public final class SchemaJson {

    private static final JsonFactory JSON = new JsonFactory();

    private SchemaJson() {}

    /** Writes one schema version as a JSON object. */
    public static void write(JsonGenerator out, TableSchema schema) throws IOException {
        out.writeStartObject();
        out.writeNumberField("tableId", schema.tableId());
        out.writeNumberField("version", schema.version());
        out.writeStringField("database", schema.database());
        out.writeStringField("table", schema.table());
        out.writeArrayFieldStart("columns");
        for (Column column : schema.columns()) {
            out.writeStartObject();
            out.writeStringField("name", column.name());
            out.writeStringField("type", column.type().name());
            out.writeStringField("sourceType", column.sourceType());
            out.writeBooleanField("nullable", column.nullable());
            out.writeNumberField("width", column.width());
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeArrayFieldStart("key");
        for (String key : schema.keyColumns()) {
            out.writeString(key);
        }
        out.writeEndArray();
        out.writeEndObject();
    }

    /** One schema version as a JSON text. */
    public static String toJson(TableSchema schema) {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = JSON.createGenerator(text)) {
            write(out, schema);
        } catch (IOException e) {
            throw new IllegalStateException("writing to a string cannot fail", e);
        }
        return text.toString();
    }

    /** Reads one schema version from a JSON text. */
    public static TableSchema fromJson(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            parser.nextToken();
            return read(parser);
        } catch (IOException e) {
            throw new MalformedJsonException("not a JSON schema: " + e.getMessage(), e);
        }
    }

    /**
     * Reads one schema version; the parser must be on its START_OBJECT.
     *
     * @throws MalformedJsonException naming the field that is missing or wrong
     */
    public static TableSchema read(JsonParser parser) throws IOException {
        expect(parser, JsonToken.START_OBJECT, "schema");
        int tableId = -1;
        int version = -1;
        String database = null;
        String table = null;
        List<Column> columns = new ArrayList<>();
        List<String> key = new ArrayList<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken token = parser.nextToken();
            switch (field) {
                case "tableId" -> tableId = intValue(parser, field);
                case "version" -> version = intValue(parser, field);
                case "database" -> database = textValue(parser, field);
                case "table" -> table = textValue(parser, field);
                case "columns" -> {
                    expect(parser, JsonToken.START_ARRAY, field);
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        columns.add(readColumn(parser));
                    }
                }
                case "key" -> {
                    expect(parser, JsonToken.START_ARRAY, field);
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        key.add(textValue(parser, field));
                    }
                }
                default -> {
                    if (token.isStructStart()) {
                        parser.skipChildren();
                    }
                }
            }
        }
        if (database == null || table == null) {
            throw new MalformedJsonException("schema lacks database or table: tableId=" + tableId);
        }
        try {
            return new TableSchema(tableId, version, database, table, columns, key);
        } catch (IllegalArgumentException e) {
            throw new MalformedJsonException("invalid schema: " + e.getMessage(), e);
        }
    }

    private static Column readColumn(JsonParser parser) throws IOException {
        expect(parser, JsonToken.START_OBJECT, "columns[]");
        String name = null;
        ValueType type = null;
        String sourceType = null;
        boolean nullable = true;
        int width = 0;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken token = parser.nextToken();
            switch (field) {
                case "name" -> name = textValue(parser, field);
                case "type" -> {
                    String text = textValue(parser, field);
                    try {
                        type = ValueType.valueOf(text);
                    } catch (IllegalArgumentException e) {
                        throw new MalformedJsonException(
                                "unknown value type: field=columns[].type, text=" + text, e);
                    }
                }
                case "sourceType" -> sourceType = textValue(parser, field);
                case "nullable" -> nullable = parser.getBooleanValue();
                case "width" -> width = intValue(parser, field);
                default -> {
                    if (token.isStructStart()) {
                        parser.skipChildren();
                    }
                }
            }
        }
        if (name == null || type == null) {
            throw new MalformedJsonException("column lacks name or type: name=" + name);
        }
        return new Column(name, type, sourceType, nullable, width);
    }

    private static void expect(JsonParser parser, JsonToken token, String field) {
        if (parser.currentToken() != token) {
            throw new MalformedJsonException(
                    "unexpected JSON: field="
                            + field
                            + ", expected="
                            + token
                            + ", found="
                            + parser.currentToken());
        }
    }

    private static int intValue(JsonParser parser, String field) throws IOException {
        expect(parser, JsonToken.VALUE_NUMBER_INT, field);
        return parser.getIntValue();
    }

    private static String textValue(JsonParser parser, String field) throws IOException {
        expect(parser, JsonToken.VALUE_STRING, field);
        return parser.getText();
    }
}
