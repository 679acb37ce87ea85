package io.changegrid.fetchers.mysql.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.TableSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of one {@link SchemaHistory} line:
 *
 * <pre>{@code
 * {"scn":4294967396,"kind":"snapshot","dialect":{"flavor":"MARIADB","version":101119,
 *  "serverCharset":"utf8mb4","utf8":"utf8mb3","explicitDefaultsForTimestamp":true,
 *  "lowerCaseTableNames":false},"ops":[...]}
 * {"scn":4294967512,"kind":"ddl","ddl":"ALTER TABLE shop.orders ADD note text","ops":[
 *  {"op":"putDatabase","database":"shop","charset":"utf8mb4"},
 *  {"op":"putTable","charset":"utf8mb4","schema":{...SchemaJson...}},
 *  {"op":"dropTable","database":"shop","table":"old"},
 *  {"op":"dropDatabase","database":"tmp"},
 *  {"op":"putView","database":"shop","table":"v"},{"op":"dropView",...}]}
 * }</pre>
 *
 * <p>Stateless; thread-safe.
 */
final class HistoryJson {

    private static final JsonFactory JSON = new JsonFactory();

    /** One parsed line: a snapshot carries the dialect, a DDL entry its statement. */
    record Entry(long scn, ServerDialect dialect, String ddl, List<CatalogOp> ops) {
        boolean isSnapshot() {
            return dialect != null;
        }
    }

    private HistoryJson() {}

    /** The line for an entry, newline included, UTF-8. */
    static byte[] write(Entry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator out = JSON.createGenerator(bytes)) {
            out.writeStartObject();
            out.writeNumberField("scn", entry.scn());
            if (entry.isSnapshot()) {
                out.writeStringField("kind", "snapshot");
                writeDialect(out, entry.dialect());
            } else {
                out.writeStringField("kind", "ddl");
                out.writeStringField("ddl", entry.ddl());
            }
            out.writeArrayFieldStart("ops");
            for (CatalogOp op : entry.ops()) {
                writeOp(out, op);
            }
            out.writeEndArray();
            out.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    private static void writeDialect(JsonGenerator out, ServerDialect dialect) throws IOException {
        out.writeObjectFieldStart("dialect");
        out.writeStringField("flavor", dialect.flavor().name());
        out.writeNumberField("version", dialect.version());
        out.writeStringField("serverCharset", dialect.serverCharset());
        out.writeStringField("utf8", dialect.utf8Charset());
        out.writeBooleanField(
                "explicitDefaultsForTimestamp", dialect.explicitDefaultsForTimestamp());
        out.writeBooleanField("lowerCaseTableNames", dialect.lowerCaseTableNames());
        out.writeEndObject();
    }

    private static void writeOp(JsonGenerator out, CatalogOp op) throws IOException {
        out.writeStartObject();
        if (op instanceof CatalogOp.PutDatabase put) {
            out.writeStringField("op", "putDatabase");
            out.writeStringField("database", put.database().name());
            out.writeStringField("charset", put.database().charset());
        } else if (op instanceof CatalogOp.DropDatabase drop) {
            out.writeStringField("op", "dropDatabase");
            out.writeStringField("database", drop.name());
        } else if (op instanceof CatalogOp.PutTable put) {
            out.writeStringField("op", "putTable");
            out.writeStringField("charset", put.charset());
            out.writeFieldName("schema");
            SchemaJson.write(out, put.schema());
        } else if (op instanceof CatalogOp.DropTable drop) {
            writeName(out, "dropTable", drop.name());
        } else if (op instanceof CatalogOp.PutView put) {
            writeName(out, "putView", put.name());
        } else if (op instanceof CatalogOp.DropView drop) {
            writeName(out, "dropView", drop.name());
        }
        out.writeEndObject();
    }

    private static void writeName(JsonGenerator out, String op, TableName name) throws IOException {
        out.writeStringField("op", op);
        out.writeStringField("database", name.database());
        out.writeStringField("table", name.table());
    }

    /**
     * Parses one line.
     *
     * @throws IOException for malformed JSON
     * @throws IllegalArgumentException for well-formed JSON that is not an entry, naming the field
     */
    static Entry read(String line) throws IOException {
        try (JsonParser in = JSON.createParser(line)) {
            expect(in.nextToken(), JsonToken.START_OBJECT, "entry");
            long scn = Long.MIN_VALUE;
            String kind = null;
            String ddl = null;
            ServerDialect dialect = null;
            List<CatalogOp> ops = null;
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                JsonToken token = in.nextToken();
                switch (field) {
                    case "scn" -> scn = in.getLongValue();
                    case "kind" -> kind = in.getText();
                    case "ddl" -> ddl = in.getText();
                    case "dialect" -> dialect = readDialect(in);
                    case "ops" -> ops = readOps(in);
                    default -> {
                        if (token.isStructStart()) {
                            in.skipChildren();
                        }
                    }
                }
            }
            if (in.nextToken() != null) {
                throw new IllegalArgumentException("text after the entry");
            }
            if (scn == Long.MIN_VALUE || ops == null || kind == null) {
                throw new IllegalArgumentException("entry lacks scn, kind or ops");
            }
            if (kind.equals("snapshot") == (dialect == null)) {
                throw new IllegalArgumentException("entry kind and dialect disagree: kind=" + kind);
            }
            return new Entry(scn, dialect, ddl, ops);
        }
    }

    private static ServerDialect readDialect(JsonParser in) throws IOException {
        expect(in.currentToken(), JsonToken.START_OBJECT, "dialect");
        String flavor = null;
        int version = 0;
        String serverCharset = null;
        String utf8 = null;
        boolean explicitDefaults = true;
        boolean lowerCase = false;
        while (in.nextToken() == JsonToken.FIELD_NAME) {
            String field = in.currentName();
            in.nextToken();
            switch (field) {
                case "flavor" -> flavor = in.getText();
                case "version" -> version = in.getIntValue();
                case "serverCharset" -> serverCharset = in.getText();
                case "utf8" -> utf8 = in.getText();
                case "explicitDefaultsForTimestamp" -> explicitDefaults = in.getBooleanValue();
                case "lowerCaseTableNames" -> lowerCase = in.getBooleanValue();
                default -> in.skipChildren();
            }
        }
        if (flavor == null) {
            throw new IllegalArgumentException("dialect lacks flavor");
        }
        return new ServerDialect(
                ServerDialect.Flavor.valueOf(flavor),
                version,
                serverCharset,
                utf8,
                explicitDefaults,
                lowerCase);
    }

    private static List<CatalogOp> readOps(JsonParser in) throws IOException {
        expect(in.currentToken(), JsonToken.START_ARRAY, "ops");
        List<CatalogOp> ops = new ArrayList<>();
        while (in.nextToken() == JsonToken.START_OBJECT) {
            String op = null;
            String database = null;
            String table = null;
            String charset = null;
            TableSchema schema = null;
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                in.nextToken();
                switch (field) {
                    case "op" -> op = in.getText();
                    case "database" -> database = in.getText();
                    case "table" -> table = in.getText();
                    case "charset" -> charset = in.getText();
                    case "schema" -> schema = SchemaJson.read(in);
                    default -> in.skipChildren();
                }
            }
            ops.add(op(op, database, table, charset, schema));
        }
        expect(in.currentToken(), JsonToken.END_ARRAY, "ops");
        return ops;
    }

    private static CatalogOp op(
            String op, String database, String table, String charset, TableSchema schema) {
        if (op == null) {
            throw new IllegalArgumentException("operation lacks field: field=op");
        }
        return switch (op) {
            case "putDatabase" ->
                    new CatalogOp.PutDatabase(
                            new DatabaseDefinition(
                                    required(database, "database", op),
                                    required(charset, "charset", op)));
            case "dropDatabase" -> new CatalogOp.DropDatabase(required(database, "database", op));
            case "putTable" ->
                    new CatalogOp.PutTable(
                            required(schema, "schema", op), required(charset, "charset", op));
            case "dropTable" -> new CatalogOp.DropTable(name(database, table, op));
            case "putView" -> new CatalogOp.PutView(name(database, table, op));
            case "dropView" -> new CatalogOp.DropView(name(database, table, op));
            default -> throw new IllegalArgumentException("unknown operation: op=" + op);
        };
    }

    private static TableName name(String database, String table, String op) {
        return new TableName(required(database, "database", op), required(table, "table", op));
    }

    private static <T> T required(T value, String field, String op) {
        if (value == null) {
            throw new IllegalArgumentException(
                    "operation lacks field: op=" + op + ", field=" + field);
        }
        return value;
    }

    private static void expect(JsonToken found, JsonToken expected, String field) {
        if (found != expected) {
            throw new IllegalArgumentException(
                    "unexpected JSON: field="
                            + field
                            + ", expected="
                            + expected
                            + ", found="
                            + found);
        }
    }
}
