package io.changegrid.appliers.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DialectTest {

    private static final TableSchema ORDERS =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "orders",
                    List.of(
                            new Column("id", ValueType.INT64, "int", false, 0),
                            Column.of("total", ValueType.DECIMAL),
                            Column.of("doc", ValueType.JSON)),
                    List.of("id"));

    @Test
    void shouldUpsertByKeyWithoutReadingWhenTheTargetIsPostgres() {
        Dialect dialect = Dialect.of("jdbc:postgresql://localhost/db");
        List<TargetColumn> columns = dialect.types().mapAll(ORDERS);
        String table = dialect.qualified("shop", "orders");
        assertThat(dialect.upsert(table, columns, List.of(columns.get(0))))
                .isEqualTo(
                        "INSERT INTO \"shop\".\"orders\" (\"id\", \"total\", \"doc\") VALUES (?, ?,"
                                + " CAST(? AS json)) ON CONFLICT (\"id\") DO UPDATE SET \"total\" ="
                                + " EXCLUDED.\"total\", \"doc\" = EXCLUDED.\"doc\"");
        assertThat(dialect.delete(table, List.of(columns.get(0))))
                .isEqualTo("DELETE FROM \"shop\".\"orders\" WHERE \"id\" = ?");
    }

    @Test
    void shouldUpsertByKeyWithoutReadingWhenTheTargetIsMariaDb() {
        Dialect dialect = Dialect.of("jdbc:mariadb://localhost:3306/");
        List<TargetColumn> columns = dialect.types().mapAll(ORDERS);
        String table = dialect.qualified("shop", "orders");
        assertThat(dialect.upsert(table, columns, List.of(columns.get(0))))
                .isEqualTo(
                        "INSERT INTO `shop`.`orders` (`id`, `total`, `doc`) VALUES (?, ?, ?) ON"
                                + " DUPLICATE KEY UPDATE `total` = VALUES(`total`), `doc` ="
                                + " VALUES(`doc`)");
        assertThat(dialect.quote("we`ird")).isEqualTo("`we``ird`");
    }

    @Test
    void shouldNameTheUrlWhenTheTargetIsNotSupported() {
        assertThatThrownBy(() -> Dialect.of("jdbc:oracle:thin:@x"))
                .hasMessageContaining("url=jdbc:oracle:thin:@x");
    }
}
