package io.changegrid.appliers.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

class ChangedColumnsTest {

    @Test
    void shouldSetOnlyTheColumnsWhoseValuesDifferWhenTheImagesAreCompared() {
        Object[] before = {1L, "a", new byte[] {1, 2}, null, new BigDecimal("1.50")};
        Object[] after = {1L, "b", new byte[] {1, 2}, 7L, new BigDecimal("1.50")};
        BitSet changed = ChangedColumns.of(before, after);
        assertThat(changed.stream().toArray()).containsExactly(1, 3);
    }

    @Test
    void shouldBeEmptyWhenNothingChanged() {
        assertThat(ChangedColumns.of(new Object[] {1L, "a"}, new Object[] {1L, "a"}).isEmpty())
                .isTrue();
    }

    @Test
    void shouldSetEveryColumnWhenTheImagesHaveDifferentWidths() {
        assertThat(ChangedColumns.of(new Object[] {1L}, new Object[] {1L, "a"}).cardinality())
                .isEqualTo(2);
    }
}
