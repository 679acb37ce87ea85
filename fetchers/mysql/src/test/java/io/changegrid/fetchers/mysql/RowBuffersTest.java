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
        assertThat(ring.take(larger.length)).isSameAs(larger);
        byte[] blob = ring.take(1_000_000); // one buffer may keep a large row's size
        assertThat(ring.take(1_000_000)).isSameAs(blob);
    }

    @Test
    void shouldKeepNoMoreThanItsShareInEachBufferOfALongRing() {
        // A ring of a thousand buffers that kept every BLOB row's size would hold gigabytes.
        RowBuffers ring = new RowBuffers(1026);
        assertThat((long) ring.keptBytes() * ring.count())
                .isLessThanOrEqualTo(RowBuffers.KEPT_TOTAL_BYTES);
        assertThat(ring.keptBytes()).isGreaterThanOrEqualTo(16 * 1024); // 8 KiB rows events fit
        byte[] kept = ring.take(100);
        for (int i = 1; i < ring.count(); i++) {
            ring.take(100);
        }
        int large = ring.keptBytes() + 1;

        byte[] blob = ring.take(large);

        assertThat(blob).hasSize(large);
        assertThat(blob).isNotSameAs(kept);
        for (int i = 1; i < ring.count(); i++) {
            ring.take(100);
        }
        assertThat(ring.take(100)).as("the slot kept its own buffer").isSameAs(kept);
    }
}
