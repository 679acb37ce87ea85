package io.changegrid.events.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.value.ValueType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaRegistryTest {

    private static final List<Column> V1 =
            List.of(
                    new Column("id", ValueType.INT64, "int", false, 0),
                    Column.of("name", ValueType.STRING));
    private static final List<Column> V2 =
            List.of(
                    new Column("id", ValueType.INT64, "int", false, 0),
                    Column.of("name", ValueType.STRING),
                    Column.of("email", ValueType.STRING));

    private final SchemaRegistry registry = new SchemaRegistry();

    @Test
    void shouldKeepTheVersionWhenTheSameDefinitionIsRegisteredAgain() {
        TableSchema first = registry.register("shop", "users", V1, List.of("id"));
        TableSchema again = registry.register("shop", "users", V1, List.of("id"));

        assertThat(again).isSameAs(first);
        assertThat(first.version()).isEqualTo(1);
    }

    @Test
    void shouldAddAVersionAndKeepTheOldOneWhenColumnsChange() {
        TableSchema v1 = registry.register("shop", "users", V1, List.of("id"));
        TableSchema v2 = registry.register("shop", "users", V2, List.of("id"));

        assertThat(v2.tableId()).isEqualTo(v1.tableId());
        assertThat(v2.version()).isEqualTo(2);
        assertThat(registry.schema(v1.tableId(), 1)).isEqualTo(v1);
        assertThat(registry.latest("shop", "users")).contains(v2);
    }

    @Test
    void shouldKeepTheTableIdWhenATableIsRenamed() {
        TableSchema v1 = registry.register("shop", "users", V1, List.of("id"));
        TableSchema renamed = registry.rename("shop", "users", "crm", "customers");

        assertThat(renamed.tableId()).isEqualTo(v1.tableId());
        assertThat(renamed.version()).isEqualTo(2);
        assertThat(renamed.columns()).isEqualTo(V1);
        assertThat(registry.latest("shop", "users")).isEmpty();
        assertThat(registry.latest("crm", "customers")).contains(renamed);
    }

    @Test
    void shouldGiveANewIdWhenADroppedTableIsCreatedAgain() {
        TableSchema old = registry.register("shop", "users", V1, List.of("id"));
        registry.drop("shop", "users");
        TableSchema created = registry.register("shop", "users", V1, List.of("id"));

        assertThat(created.tableId()).isNotEqualTo(old.tableId());
        assertThat(registry.schema(old.tableId(), 1)).isEqualTo(old);
    }

    @Test
    void shouldNameTableAndVersionWhenASchemaIsUnknown() {
        assertThatThrownBy(() -> registry.schema(42, 3))
                .isInstanceOf(UnknownSchemaException.class)
                .hasMessage("unknown schema: tableId=42, version=3");
        assertThatThrownBy(() -> registry.rename("a", "b", "c", "d"))
                .hasMessageContaining("cannot rename unknown table: table=a.b");
    }

    @Test
    void shouldRebuildTheSameRegistryWhenRestoredFromItsVersions() {
        List<TableSchema> persisted = new ArrayList<>();
        registry.addListener(persisted::add);
        registry.register("shop", "users", V1, List.of("id"));
        registry.register("shop", "users", V2, List.of("id"));
        registry.register("shop", "orders", V1, List.of());
        registry.rename("shop", "orders", "shop", "purchases");

        SchemaRegistry restored = new SchemaRegistry();
        persisted.forEach(restored::restore);

        assertThat(restored.allVersions()).isEqualTo(registry.allVersions());
        assertThat(restored.latest("shop", "purchases"))
                .isEqualTo(registry.latest("shop", "purchases"));
        assertThat(restored.latest("shop", "orders")).isEmpty();
        TableSchema next = restored.register("shop", "refunds", V1, List.of("id"));
        assertThat(next.tableId()).isEqualTo(3);
    }

    @Test
    void shouldRefuseASchemaWhenItsKeyNamesAColumnItLacks() {
        assertThatThrownBy(() -> registry.register("shop", "users", V1, List.of("uid")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key column not in table: table=shop.users, column=uid");
    }

    @Test
    void shouldKeepNamesWithDotsApart() {
        TableSchema dotted = registry.register("a.b", "c", V1, List.of("id"));
        TableSchema other = registry.register("a", "b.c", V1, List.of("id"));

        assertThat(dotted.tableId()).isNotEqualTo(other.tableId());
    }
}
