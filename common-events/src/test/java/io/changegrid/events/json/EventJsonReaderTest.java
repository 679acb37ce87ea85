package io.changegrid.events.json;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.MySqlTypeSamples;
import io.changegrid.events.schema.SchemaRegistry;
import org.junit.jupiter.api.Test;

class EventJsonReaderTest {

    private final SchemaRegistry registry = new SchemaRegistry();
    private final EventJsonReader reader = new EventJsonReader(registry);

    {
        MySqlTypeSamples.register(registry);
    }

    private static String insert(String after) {
        return "{\"source\":1,\"scn\":5,\"index\":0,\"op\":\"INSERT\",\"txn\":\"t\","
                + "\"commitTime\":\"2026-01-01T00:00:00Z\",\"tableId\":1,\"schemaVersion\":1,"
                + "\"after\":"
                + after
                + "}";
    }

    @Test
    void shouldNameTheFieldTypeAndTextWhenAValueDoesNotFit() {
        assertThatThrownBy(() -> reader.read(insert("{\"id\":\"seven\"}")))
                .isInstanceOf(MalformedJsonException.class)
                .hasMessageContaining("field=after.id, type=INT64, text=seven");
    }

    @Test
    void shouldRejectAColumnTheSchemaDoesNotHave() {
        assertThatThrownBy(() -> reader.read(insert("{\"nope\":1}")))
                .hasMessageContaining(
                        "column not in schema: field=after.nope, table=shop.all_types");
    }

    @Test
    void shouldRejectAnImageThatLacksColumns() {
        assertThatThrownBy(() -> reader.read(insert("{\"id\":1}")))
                .hasMessageContaining("image lacks columns: field=after, expected=34, found=1");
    }

    @Test
    void shouldRejectAnUnknownSchemaAndAnUnknownOperation() {
        assertThatThrownBy(
                        () -> reader.read(insert("{}").replace("\"tableId\":1", "\"tableId\":9")))
                .hasMessageContaining("unknown schema: tableId=9, version=1");
        assertThatThrownBy(() -> reader.read(insert("{}").replace("INSERT", "UPSERT")))
                .hasMessageContaining("unknown operation: field=op, text=UPSERT");
    }

    @Test
    void shouldRejectTextThatIsNotJson() {
        assertThatThrownBy(() -> reader.read("{\"source\":"))
                .isInstanceOf(MalformedJsonException.class)
                .hasMessageContaining("not a JSON event");
    }
}
