package io.changegrid.appliers.schema;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.typemap.UnmappableTypeException;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableCatalogTypesTest {

    private static TableSchema table(int id, String name, Column... more) {
        List<Column> columns =
                new java.util.ArrayList<>(
                        List.of(new Column("id", ValueType.INT64, "bigint", false, 0)));
        columns.addAll(List.of(more));
        return new TableSchema(id, 1, "shop", name, columns, List.of("id"));
    }

    private static TableCatalog catalog(String url) {
        return new TableCatalog(
                Dialect.of(url),
                null,
                true,
                SchemaChangeMode.APPLY,
                false,
                WriteOrder.sourceOrder());
    }

    @Test
    void shouldNameEveryUnmappableColumnOfEveryTableWhenCheckedAtStart() {
        List<TableSchema> tables =
                List.of(
                        table(1, "orders", Column.of("placed_at", ValueType.TIMESTAMP_TZ)),
                        table(2, "customers", Column.of("name", ValueType.STRING)),
                        table(
                                3,
                                "shipments",
                                Column.of("sent_at", ValueType.TIMESTAMP_TZ),
                                Column.of("due_at", ValueType.TIMESTAMP_TZ)));
        // MariaDB: no MySQL type keeps an offset (PostgreSQL takes TIMESTAMP_TZ as timestamptz)
        assertThatThrownBy(() -> catalog("jdbc:mariadb:").checkTypes(tables))
                .isInstanceOf(UnmappableTypeException.class)
                .hasMessageContaining("table=shop.orders, column=placed_at, type=TIMESTAMP_TZ")
                .hasMessageContaining("table=shop.shipments, column=sent_at")
                .hasMessageContaining("column=due_at")
                .hasMessageNotContaining("customers");
        assertThatCode(() -> catalog("jdbc:postgresql:").checkTypes(tables))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldAcceptTablesWhenEveryColumnMaps() {
        assertThatCode(
                        () ->
                                catalog("jdbc:postgresql:")
                                        .checkTypes(
                                                List.of(
                                                        table(
                                                                1,
                                                                "customers",
                                                                Column.of(
                                                                        "name",
                                                                        ValueType.STRING)))))
                .doesNotThrowAnyException();
    }
}
