package io.changegrid.fetchers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyRangeQueryTest {

    private static final KeyRangeQuery.Dialect BACKTICKS =
            new KeyRangeQuery.Dialect() {
                @Override
                public String quote(String identifier) {
                    return "`" + identifier.replace("`", "``") + "`";
                }

                @Override
                public String placeholder(TableSchema table, int k) {
                    return "?";
                }

                @Override
                public boolean rowValueRanges() {
                    return false;
                }
            };

    private static final KeyRangeQuery.Dialect CASTS =
            new KeyRangeQuery.Dialect() {
                @Override
                public String quote(String identifier) {
                    return "\"" + identifier + "\"";
                }

                @Override
                public String placeholder(TableSchema table, int k) {
                    return "CAST(? AS " + table.column(table.keyIndex(k)).sourceType() + ")";
                }

                @Override
                public boolean rowValueRanges() {
                    return true;
                }
            };

    private final TableSchema composite =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "lines",
                    List.of(
                            Column.of("order_id", ValueType.INT64),
                            Column.of("no", ValueType.INT64),
                            Column.of("sku", ValueType.STRING)),
                    List.of("order_id", "no"));

    @Test
    void shouldReadTheFirstRowsWithoutKeyConditionWhenTheTableStarts() {
        KeyRangeQuery query = KeyRangeQuery.of(composite, BACKTICKS, true, 100);

        assertThat(query.sql())
                .isEqualTo(
                        "SELECT `order_id`, `no`, `sku` FROM `shop`.`lines`"
                                + " ORDER BY `order_id`, `no` LIMIT 100");
        assertThat(query.parameters()).isEmpty();
    }

    @Test
    void shouldCompareColumnByColumnWhenRowValuesAreNoRange() {
        KeyRangeQuery query = KeyRangeQuery.of(composite, BACKTICKS, false, 10);

        assertThat(query.sql())
                .isEqualTo(
                        "SELECT `order_id`, `no`, `sku` FROM `shop`.`lines` WHERE (`order_id` > ?)"
                                + " OR (`order_id` = ? AND `no` > ?) ORDER BY `order_id`, `no` LIMIT 10");
        assertThat(query.parameters()).containsExactly(0, 0, 1);
    }

    @Test
    void shouldCompareRowValuesWhenTheDialectRangesThem() {
        KeyRangeQuery query = KeyRangeQuery.of(composite, CASTS, false, 10);

        assertThat(query.sql())
                .contains("WHERE (\"order_id\", \"no\") > (CAST(? AS int64), CAST(? AS int64))");
        assertThat(query.parameters()).containsExactly(0, 1);
    }

    @Test
    void shouldRefuseByNameWhenTheTableHasNoPrimaryKey() {
        TableSchema noKey =
                new TableSchema(
                        2,
                        1,
                        "shop",
                        "audit_log",
                        List.of(Column.of("x", ValueType.STRING)),
                        List.of());

        assertThatThrownBy(() -> KeyRangeQuery.of(noKey, BACKTICKS, true, 10))
                .isInstanceOf(NoPrimaryKeyException.class)
                .hasMessageStartingWith("snapshot needs a primary key: table=shop.audit_log");
    }
}
