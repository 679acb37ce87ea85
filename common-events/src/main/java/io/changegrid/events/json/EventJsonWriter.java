package io.changegrid.events.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.time.Instant;

/**
 * Writes the JSON form of an event, for HTTP consumers in other languages and for humans:
 *
 * <pre>{@code
 * {"source":1,"scn":4294967396,"index":0,"op":"UPDATE","txn":"0-1-42",
 *  "commitTime":"2026-11-21T09:00:00.123456Z","db":"shop","table":"orders",
 *  "tableId":3,"schemaVersion":2,"key":{"id":7},
 *  "before":{"id":7,"total":"10.00"},"after":{"id":7,"total":"12.50"}}
 * }</pre>
 *
 * Images are objects from column name to value in column order, each value in the form {@link
 * JsonValues} defines; absent images are left out. SCHEMA_CHANGE carries {@code "ddl"}; HEARTBEAT
 * and END_OF_TRANSACTION carry no table. {@link EventJsonReader} reads this form back exactly.
 */
public final class EventJsonWriter {

    private EventJsonWriter() {}

    /** Writes one event as a JSON object. */
    public static void write(JsonGenerator out, ChangeEvent event) throws IOException {
        out.writeStartObject();
        out.writeNumberField("source", event.sourceId());
        out.writeNumberField("scn", event.scn());
        out.writeNumberField("index", event.index());
        out.writeStringField("op", event.operation().name());
        out.writeStringField("txn", event.transactionId());
        out.writeStringField("commitTime", commitTime(event.commitTimeMicros()));
        TableSchema schema = event.schema();
        if (schema != null) {
            out.writeStringField("db", schema.database());
            out.writeStringField("table", schema.table());
            out.writeNumberField("tableId", schema.tableId());
            out.writeNumberField("schemaVersion", schema.version());
        }
        if (event.operation().isRowChange()) {
            Object[] key = event.key();
            out.writeObjectFieldStart("key");
            for (int k = 0; k < key.length; k++) {
                out.writeFieldName(schema.keyColumns().get(k));
                JsonValues.write(out, schema.column(schema.keyIndex(k)), key[k]);
            }
            out.writeEndObject();
            writeImage(out, "before", schema, event.before());
            writeImage(out, "after", schema, event.after());
        }
        if (event.ddl() != null) {
            out.writeStringField("ddl", event.ddl());
        }
        out.writeEndObject();
    }

    private static void writeImage(JsonGenerator out, String name, TableSchema schema, Object[] row)
            throws IOException {
        if (row == null) {
            return;
        }
        out.writeObjectFieldStart(name);
        for (int i = 0; i < row.length; i++) {
            out.writeFieldName(schema.column(i).name());
            JsonValues.write(out, schema.column(i), row[i]);
        }
        out.writeEndObject();
    }

    private static String commitTime(long micros) {
        return Instant.ofEpochSecond(
                        Math.floorDiv(micros, 1_000_000L),
                        Math.floorMod(micros, 1_000_000L) * 1_000L)
                .toString();
    }
}
