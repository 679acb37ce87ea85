package io.changegrid.events.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
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
 * and END_OF_TRANSACTION carry no table. An END_OF_TRANSACTION that ends a part of a transaction
 * published in parts ({@link io.changegrid.events.frame.FrameLayout#FLAG_CONTINUED}) carries {@code
 * "continued":true} ({@link #CONTINUED}); the transaction's own end carries no such field. {@link
 * EventJsonReader} reads this form back exactly, except the part mark, which a {@link ChangeEvent}
 * does not hold (readers of the JSON form see it in the text).
 */
public final class EventJsonWriter {

    /**
     * The field of an END_OF_TRANSACTION line that ends a part, not the transaction: {@code
     * "continued":true}. Absent on every other event: a reader that ignores it sees the part ends
     * as transaction ends, so a JSON reader of parts must read it (docs/event-format.md).
     */
    public static final String CONTINUED = "continued";

    private EventJsonWriter() {}

    /** Writes one event as a JSON object. */
    public static void write(JsonGenerator out, ChangeEvent event) throws IOException {
        write(out, event, false);
    }

    /**
     * Writes one event as a JSON object, marking an END_OF_TRANSACTION that ends a part.
     *
     * @param continued whether the event is a part's end ({@link
     *     io.changegrid.events.frame.EventFrame#continues()}); only an END_OF_TRANSACTION can be
     * @throws IllegalArgumentException if {@code continued} is set on another operation
     */
    public static void write(JsonGenerator out, ChangeEvent event, boolean continued)
            throws IOException {
        if (continued && event.operation() != Operation.END_OF_TRANSACTION) {
            throw new IllegalArgumentException(
                    "only an END_OF_TRANSACTION ends a part: op="
                            + event.operation()
                            + ", scn="
                            + event.scn()
                            + ", index="
                            + event.index());
        }
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
        if (continued) {
            out.writeBooleanField(CONTINUED, true);
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
