package io.changegrid.appliers.park;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.json.EventJsonReader;
import io.changegrid.events.json.EventJsonWriter;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.io.StringWriter;

/**
 * A recorded change as text: the event in the relay's JSON form and its table's schema as JSON,
 * both read back exactly ({@link EventJsonReader}), and readable by the operator who has to fix
 * what the target refused.
 */
final class EventJson {

    private static final JsonFactory JSON = new JsonFactory();

    private EventJson() {}

    static String write(ChangeEvent event) {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = JSON.createGenerator(text)) {
            EventJsonWriter.write(out, event);
        } catch (IOException e) {
            throw new IllegalStateException("writing to a string cannot fail", e);
        }
        return text.toString();
    }

    static String write(TableSchema schema) {
        return SchemaJson.toJson(schema);
    }

    /** The event {@link #write} wrote, decoded with the schema written beside it. */
    static ChangeEvent read(String event, String schema) {
        SchemaRegistry registry = new SchemaRegistry();
        registry.restore(SchemaJson.fromJson(schema));
        return new EventJsonReader(registry).read(event);
    }
}
