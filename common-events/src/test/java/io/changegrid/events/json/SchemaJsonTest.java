package io.changegrid.events.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.MySqlTypeSamples;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import org.junit.jupiter.api.Test;

class SchemaJsonTest {

    @Test
    void shouldRoundTripASchemaWithEveryColumnType() {
        TableSchema schema = MySqlTypeSamples.register(new SchemaRegistry());

        assertThat(SchemaJson.fromJson(SchemaJson.toJson(schema))).isEqualTo(schema);
    }

    @Test
    void shouldNameTheFieldWhenAColumnTypeIsUnknown() {
        String json =
                "{\"tableId\":1,\"version\":1,\"database\":\"d\",\"table\":\"t\","
                        + "\"columns\":[{\"name\":\"a\",\"type\":\"VARCHAR\"}],\"key\":[]}";

        assertThatThrownBy(() -> SchemaJson.fromJson(json))
                .isInstanceOf(MalformedJsonException.class)
                .hasMessage("unknown value type: field=columns[].type, text=VARCHAR");
    }
}
