package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RowBuffersTest {

    @Test
    void shouldHandOutItsBuffersInTurnAndReuseEachAfterTheOthers() {
        RowBuffers ring = new RowBuffers(3);
        byte[] first = ring.take(100);
        byte[] second = ring.take(100);
        byte[] third = ring.take(100);

        assertThat(first).isNotSameAs(second).isNotSameAs(third);
        assertThat(second).isNotSameAs(third);
        assertThat(ring.take(100)).isSameAs(first);
        assertThat(ring.take(first.length)).isSameAs(second);
    }

    @Test
    void shouldGrowABufferForALargerEventAndKeepIt() {
        RowBuffers ring = RowBuffers.single();
        byte[] small = ring.take(10);
        byte[] larger = ring.take(small.length + 1);

        assertThat(larger).isNotSameAs(small).hasSizeGreaterThan(small.length);
        assertThat(larger.length).isLessThanOrEqualTo(RowBuffers.KEPT_BYTES);
        assertThat(ring.take(larger.length)).isSameAs(larger);
    }

    @Test
    void shouldNotKeepABufferLargerThanItsLimit() {
        // A ring of a thousand buffers that kept every BLOB row's size would hold gigabytes.
        RowBuffers ring = RowBuffers.single();
        byte[] kept = ring.take(100);
        int large = RowBuffers.KEPT_BYTES * 64;

        byte[] blob = ring.take(large);

        assertThat(blob).hasSize(large);
        assertThat(ring.take(100)).isSameAs(kept);
        assertThat(ring.take(large)).isNotSameAs(blob);
    }
}
