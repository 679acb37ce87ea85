package io.changegrid.fetchers.goldengate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.schema.Column;
import io.changegrid.events.value.ValueType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads the schema files GoldenGate's JSON formatter generates ({@code
 * gg.handler.<name>.format.generateSchema=true}): one JSON Schema (draft 4) per table, named {@code
 * <SCHEMA>.<TABLE>.schema.json}, whose {@code title} is the table and whose {@code
 * definitions.row.properties} are its columns with their JSON types ({@code ["number","null"]}).
 *
 * <p>JSON types are coarse: {@code integer} becomes INT64, {@code number} DECIMAL (exact), {@code
 * boolean} BOOLEAN and anything else STRING (dates and timestamps arrive as text). A table that
 * needs finer types is declared in {@code source.tables}, which wins over its schema file. Small
 * files, read once at start: no attention to allocation here.
 */
final class SchemaFiles {

    static final String SUFFIX = ".schema.json";
    private static final JsonFactory JSON = new JsonFactory();

    private SchemaFiles() {}

    /**
     * Every schema file's table, by qualified name.
     *
     * @throws FetchFailedException naming the file and problem
     */
    static Map<String, TableDefinition> read(Path directory) throws IOException {
        Map<String, TableDefinition> tables = new LinkedHashMap<>();
        if (!Files.isDirectory(directory)) {
            throw new FetchFailedException(
                    "schema directory is not a directory: source.schemaDirectory=" + directory);
        }
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file :
                    files.filter(f -> f.getFileName().toString().endsWith(SUFFIX))
                            .sorted()
                            .toList()) {
                TableDefinition table = readFile(file);
                tables.put(table.qualifiedName(), table);
            }
        }
        return tables;
    }

    static TableDefinition readFile(Path file) throws IOException {
        Object root;
        try (JsonParser parser = JSON.createParser(file.toFile())) {
            parser.nextToken();
            root = tree(parser);
        } catch (IOException e) {
            throw new FetchFailedException(
                    "schema file is not valid JSON: file=" + file + ", problem=" + e.getMessage(),
                    e);
        }
        String title = text(root, "title");
        Object properties = at(root, "definitions", "row", "properties");
        if (title == null || !(properties instanceof Map<?, ?> columns)) {
            throw new FetchFailedException(
                    "schema file without title or definitions.row.properties: file=" + file);
        }
        String[] name;
        try {
            name = TableDefinition.splitName(title);
        } catch (IllegalArgumentException e) {
            throw new FetchFailedException(e.getMessage() + ", file=" + file, e);
        }
        List<Column> definitions = new ArrayList<>();
        for (var entry : columns.entrySet()) {
            String column = (String) entry.getKey();
            Object type = entry.getValue() instanceof Map<?, ?> m ? m.get("type") : null;
            List<?> types = type instanceof List<?> list ? list : List.of(String.valueOf(type));
            boolean nullable = types.contains("null");
            String json =
                    types.stream()
                            .map(String::valueOf)
                            .filter(t -> !t.equals("null"))
                            .findFirst()
                            .orElse("string");
            ValueType valueType =
                    switch (json) {
                        case "integer" -> ValueType.INT64;
                        case "number" -> ValueType.DECIMAL;
                        case "boolean" -> ValueType.BOOLEAN;
                        default -> ValueType.STRING;
                    };
            definitions.add(new Column(column, valueType, json, nullable, 0));
        }
        if (definitions.isEmpty()) {
            throw new FetchFailedException("schema file without columns: file=" + file);
        }
        return new TableDefinition(name[0], name[1], definitions, List.of(), file.toString());
    }

    private static Object at(Object node, String... path) {
        Object current = node;
        for (String step : path) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(step);
        }
        return current;
    }

    private static String text(Object node, String field) {
        return at(node, field) instanceof String s ? s : null;
    }

    /** The value at the parser's current token as maps, lists and scalars. */
    private static Object tree(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT) {
            Map<String, Object> map = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                map.put(field, tree(parser));
            }
            return map;
        }
        if (token == JsonToken.START_ARRAY) {
            List<Object> list = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                list.add(tree(parser));
            }
            return list;
        }
        return token == JsonToken.VALUE_NULL ? null : parser.getText();
    }
}
