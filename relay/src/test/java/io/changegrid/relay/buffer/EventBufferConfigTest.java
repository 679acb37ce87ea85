package io.changegrid.relay.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EventBufferConfigTest {

    private static final int MIB = 1 << 20;
    private static final int GIB = 1 << 30;

    @Test
    void shouldAcceptTensOfGigabytesWhenSegmentsAreLarge() {
        EventBufferConfig config = EventBufferConfig.mapped(40L * GIB, GIB, Path.of("/dev/shm"));

        assertThat(config.segmentCount()).isEqualTo(40);
        assertThat(config.indexStrideBytes())
                .isEqualTo(EventBufferConfig.DEFAULT_INDEX_STRIDE_BYTES);
        assertThat(config.storage()).isEqualTo(new MappedSegmentStorage(Path.of("/dev/shm"), true));
    }

    @Test
    void shouldAcceptMegabytesWhenSegmentsAreSmall() {
        EventBufferConfig config = EventBufferConfig.direct(8 * MIB, MIB);

        assertThat(config.segmentCount()).isEqualTo(8);
        assertThat(config.storage()).isEqualTo(SegmentStorage.direct());
    }

    @Test
    void shouldShrinkDefaultIndexStrideWhenSegmentsAreSmallerThanIt() {
        assertThat(EventBufferConfig.direct(2 * 4096, 4096).indexStrideBytes()).isEqualTo(4096);
    }

    @Test
    void shouldRejectSegmentLargerThanOneGibibyteWhenConfigured() {
        assertThatThrownBy(() -> EventBufferConfig.direct(4L * GIB, Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "invalid event buffer config: segment size out of range: segmentBytes="
                                + Integer.MAX_VALUE
                                + ", min=4096, max=1073741824");
    }

    @Test
    void shouldRejectSegmentSizeThatIsNotPowerOfTwo() {
        assertThatThrownBy(() -> EventBufferConfig.direct(30 * MIB, 3 * MIB))
                .hasMessage(
                        "invalid event buffer config: segment size must be a power of two:"
                                + " segmentBytes=3145728");
    }

    @Test
    void shouldRejectCapacityThatIsNotMultipleOfSegment() {
        assertThatThrownBy(() -> EventBufferConfig.direct(5 * MIB + 1, MIB))
                .hasMessage(
                        "invalid event buffer config: capacity must be a multiple of the segment"
                                + " size: capacityBytes=5242881, segmentBytes=1048576");
    }

    @Test
    void shouldRejectSingleSegment() {
        assertThatThrownBy(() -> EventBufferConfig.direct(MIB, MIB))
                .hasMessage(
                        "invalid event buffer config: segment count out of range: segments=1,"
                                + " min=2, max=1048576, capacityBytes=1048576,"
                                + " segmentBytes=1048576");
    }

    @Test
    void shouldRejectIndexStrideTooSmallForCapacity() {
        assertThatThrownBy(() -> EventBufferConfig.direct(8L * GIB, GIB).withIndexStrideBytes(256))
                .hasMessage(
                        "invalid event buffer config: index stride too small for the capacity,"
                                + " raise it: indexStrideBytes=256, capacityBytes=8589934592,"
                                + " maxIndexEntries=16777216");
    }

    @Test
    void shouldReportEveryProblemAtOnceWhenInvalid() {
        assertThatThrownBy(() -> new EventBufferConfig(0, 1000, 100, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "invalid event buffer config: segment size out of range: segmentBytes=1000,"
                                + " min=4096, max=1073741824; capacity must be positive:"
                                + " capacityBytes=0; index stride out of range:"
                                + " indexStrideBytes=100, min=256, max=segmentBytes=1000;"
                                + " segment storage must be given: storage=null");
    }

    @Test
    void shouldRejectMissingMappedDirectory() {
        assertThatThrownBy(() -> SegmentStorage.mapped(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mapped segment directory must be given: null");
    }
}
