package io.changegrid.appliers.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class LaneRouterTest {

    @Test
    void shouldParseEveryRouterWhenItsNameIsGiven() {
        assertThat(LaneRouter.parse("key")).isEqualTo(new LaneRouter.ByKey());
        assertThat(LaneRouter.parse(" Transaction ")).isEqualTo(new LaneRouter.ByTransaction());
        assertThat(LaneRouter.parse("event")).isEqualTo(new LaneRouter.ByEvent());
        assertThat(LaneRouter.parse("column:customer_id"))
                .isEqualTo(new LaneRouter.ByColumn("customer_id"));
    }

    @Test
    void shouldNameTheTextWhenARouterIsUnknown() {
        assertThatThrownBy(() -> LaneRouter.parse("round-robin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value=round-robin");
        assertThatThrownBy(() -> LaneRouter.parse("column:")).hasMessageContaining("value=column:");
    }

    @Test
    void shouldKeepByteArrayKeysEqualWhenTheirContentIsEqual() {
        RowKey a = new RowKey(new Object[] {new byte[] {1, 2}, 7L});
        RowKey b = new RowKey(new Object[] {new byte[] {1, 2}, 7L});
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(new RowKey(new Object[] {new byte[] {1, 3}, 7L}));
    }

    @Test
    void shouldHashKeysTheSameWayInEveryJvmWhenValuesAreEqual() {
        // Value-based hashes only: a replay in another process must route to the same lane.
        assertThat(new RowKey(new Object[] {42L, "a", new byte[] {9}}).hashCode())
                .isEqualTo(java.util.Arrays.deepHashCode(new Object[] {42L, "a", new byte[] {9}}));
    }

    private static TableSchema orders(int tableId) {
        return new TableSchema(
                tableId,
                1,
                "shop",
                "orders",
                List.of(
                        new Column("id", ValueType.INT64, "bigint", false, 0),
                        new Column("customer", ValueType.INT64, "int", true, 0)),
                List.of("id"));
    }

    @Test
    void shouldRouteARowToTheSameLaneWhenAnotherRelayNumberedItsTableDifferently() {
        // Relays number tables in the order they first see them: after a failover the same table
        // has another id, and every lane must still get the same keys.
        LaneRouter byKey = new LaneRouter.ByKey();
        TableSchema atRelayA = orders(3);
        TableSchema atRelayB = orders(11);
        int moved = 0;
        for (long id = 1; id <= 1000; id++) {
            RowKey key = new RowKey(new Object[] {id});
            Object[] row = {id, 7L};
            if (byKey.lane(atRelayA, key, row, 5, 0, 4)
                    != byKey.lane(atRelayB, key, row, 9, 3, 4)) {
                moved++;
            }
        }
        assertThat(moved).isZero();
    }

    @Test
    void shouldSpreadKeysOverEveryLaneWhenRoutedByKey() {
        LaneRouter byKey = new LaneRouter.ByKey();
        int[] perLane = new int[4];
        for (long id = 1; id <= 1000; id++) {
            perLane[
                    byKey.lane(
                            orders(1),
                            new RowKey(new Object[] {id}),
                            new Object[] {id, 7L},
                            5,
                            0,
                            4)]++;
        }
        for (int count : perLane) {
            assertThat(count).isBetween(150, 350);
        }
    }
}
