package io.changegrid.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchTablesTest {

    @Test
    void shouldGiveEveryRelayATableWhenThreeTablesSplitIntoTwoAndThree() {
        BenchTables tables = BenchTables.balanced("bench", 3, Set.of(2, 3));

        assertThat(tables.names()).hasSize(3).doesNotHaveDuplicates();
        assertThat(tables.tablesPerPartition(3)).containsExactly(1, 1, 1);
        assertThat(tables.tablesPerPartition(2)).containsExactlyInAnyOrder(2, 1);
    }

    @Test
    void shouldSplitEvenlyWhenTablesAreAMultipleOfThePartitions() {
        BenchTables tables = BenchTables.balanced("changegrid_bench", 12, Set.of(2, 3, 4));

        assertThat(tables.tablesPerPartition(2)).containsExactly(6, 6);
        assertThat(tables.tablesPerPartition(3)).containsExactly(4, 4, 4);
        assertThat(tables.tablesPerPartition(4)).containsExactly(3, 3, 3, 3);
    }

    @Test
    void shouldStillNameEveryTableWhenNoSplitIsAsked() {
        assertThat(BenchTables.balanced("bench", 5, Set.of()).names())
                .containsExactly("orders", "customers", "payments", "shipments", "invoices");
    }
}
