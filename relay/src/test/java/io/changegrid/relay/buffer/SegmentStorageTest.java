package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentStorageTest {

    private static final int GIB = 1 << 30;

    @TempDir Path directory;

    /**
     * Three sparse 1 GiB segments: the capacity a 32-bit ByteBuffer cannot address, at the cost of
     * the few pages actually written.
     */
    @Test
    void shouldHoldMoreThanTwoGibibytesWhenSegmentsAreMapped() throws IOException {
        long capacity = 3L * GIB;
        long usable = Files.getFileStore(directory).getUsableSpace();
        if (usable < capacity) {
            System.out.println(
                    "skipping: the temp directory has too little room for sparse segments:"
                            + " directory="
                            + directory
                            + ", usableBytes="
                            + usable);
        }
        assumeTrue(usable >= capacity, "temp directory has room for 3 GiB of sparse segments");
        EventBuffer buffer =
                new EventBuffer(
                        new EventBufferConfig(
                                capacity,
                                GIB,
                                EventBufferConfig.DEFAULT_INDEX_STRIDE_BYTES,
                                SegmentStorage.mappedSparse(directory)));
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left).as("segment files are unlinked once mapped").isEmpty();
        }
        SampleTransactions samples = new SampleTransactions(4);
        int length = samples.append(buffer, 10, 3, 1000);
        samples.append(buffer, 20, 3, 1000);

        ByteBuffer destination = ByteBuffer.allocate(64 * 1024);
        assertThat(buffer.newReader().read(NULL_SCN, destination)).isEqualTo(2);

        assertThat(buffer.capacity()).isEqualTo(capacity);
        assertThat(buffer.maxTransactionBytes()).isEqualTo(GIB);
        assertThat(
                        SampleTransactions.entries(destination, 0, destination.position())
                                .get(0)
                                .length())
                .isEqualTo(length);
        assertThat(buffer.indexHeapBytes()).isLessThan(3 * 1024 * 1024);
        buffer.close();
    }

    @Test
    void shouldNameTheJvmFlagWhenDirectMemoryIsTooSmall() {
        long capacity = (DirectMemoryLimit.maxBytes() / GIB + 2) * GIB;

        assertThatThrownBy(() -> new EventBuffer(EventBufferConfig.direct(capacity, GIB)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "not enough direct memory for the event buffer: capacityBytes="
                                + capacity
                                + ", maxDirectMemoryBytes="
                                + DirectMemoryLimit.maxBytes())
                .hasMessageContaining("raise -XX:MaxDirectMemorySize");
    }

    @Test
    void shouldRefuseMappedSegmentsWhenDirectoryLacksSpace() {
        long capacity = (long) EventBufferConfig.MAX_SEGMENTS * GIB;

        assertThatThrownBy(
                        () ->
                                new EventBuffer(
                                        new EventBufferConfig(
                                                capacity,
                                                GIB,
                                                GIB,
                                                SegmentStorage.mapped(directory))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "not enough space for mapped event buffer segments: directory="
                                + directory
                                + ", capacityBytes="
                                + capacity);
    }

    @Test
    void shouldRefuseMappedSegmentsWhenDirectoryIsMissing() {
        Path missing = directory.resolve("missing");

        assertThatThrownBy(() -> new EventBuffer(EventBufferConfig.mapped(8 * 4096, 4096, missing)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "mapped segment directory is not a writable directory: directory="
                                + missing);
    }

    @Test
    void shouldMapSmallSegmentsAndWrapWhenMapped() {
        EventBuffer buffer = new EventBuffer(EventBufferConfig.mapped(2 * 4096, 4096, directory));
        SampleTransactions samples = new SampleTransactions(5);
        for (long scn = 1; scn <= 20; scn++) {
            samples.append(buffer, scn, 1, 1500);
        }

        ByteBuffer destination = ByteBuffer.allocate(8192);
        EventBufferReader reader = buffer.newReader();
        assertThat(reader.read(buffer.highestEvictedScn(), destination)).isPositive();
        assertThat(reader.lastScn()).isEqualTo(20);
        assertThat(buffer.segmentsEvicted()).isPositive();
        buffer.close();
    }
}
