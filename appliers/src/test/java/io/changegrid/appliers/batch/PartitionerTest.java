package io.changegrid.appliers.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PartitionerTest {

    @Test
    void shouldParseEveryPartitionerWhenItsNameIsGiven() {
        assertThat(Partitioner.parse("key")).isEqualTo(new Partitioner.ByKey());
        assertThat(Partitioner.parse(" Transaction ")).isEqualTo(new Partitioner.ByTransaction());
        assertThat(Partitioner.parse("event")).isEqualTo(new Partitioner.ByEvent());
        assertThat(Partitioner.parse("column:customer_id"))
                .isEqualTo(new Partitioner.ByColumn("customer_id"));
    }

    @Test
    void shouldNameTheTextWhenAPartitionerIsUnknown() {
        assertThatThrownBy(() -> Partitioner.parse("round-robin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value=round-robin");
        assertThatThrownBy(() -> Partitioner.parse("column:"))
                .hasMessageContaining("value=column:");
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
}
