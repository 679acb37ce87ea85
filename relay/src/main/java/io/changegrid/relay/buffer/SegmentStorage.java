package io.changegrid.relay.buffer;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Where an {@link EventBuffer}'s segments live: a strategy chosen in the {@link EventBufferConfig}.
 *
 * <ul>
 *   <li>{@link DirectSegmentStorage}: direct byte buffers, the default. They count against the
 *       JVM's direct memory limit ({@code -XX:MaxDirectMemorySize}, which defaults to {@code
 *       -Xmx}); construction fails up front, naming the flag, when the buffer would not fit.
 *   <li>{@link MappedSegmentStorage}: files in a directory (e.g. {@code /dev/shm}), mapped and
 *       unlinked at once so nothing is left behind after {@code kill -9}; not subject to the direct
 *       memory limit, so a relay can hold tens of gigabytes with a heap under 512 MB.
 *   <li>{@link SegmentFiles}: named files in a directory of the relay's own, kept across restarts
 *       so that a restarted relay recovers its buffer from them ({@link BufferRecovery}).
 * </ul>
 *
 * <p>Both give up their memory when the {@link ByteBuffer}s become unreachable: {@link
 * EventBuffer#close()} drops its references rather than unmapping or freeing eagerly, because a
 * reader still copying from a freed segment would crash the JVM instead of reading stale bytes.
 */
public sealed interface SegmentStorage
        permits DirectSegmentStorage, MappedSegmentStorage, SegmentFiles {

    /**
     * Allocates {@code segmentCount} segments of {@code segmentBytes} each, or fails having kept
     * none of them.
     *
     * @throws IllegalStateException if the memory is not available, saying which limit to raise
     * @throws java.io.UncheckedIOException if a mapped file cannot be created or mapped
     */
    ByteBuffer[] allocate(int segmentCount, int segmentBytes);

    /** Segments in direct memory. */
    static SegmentStorage direct() {
        return new DirectSegmentStorage();
    }

    /**
     * Segments in files mapped from {@code directory} and unlinked right after mapping, every page
     * taken at start.
     */
    static SegmentStorage mapped(Path directory) {
        return new MappedSegmentStorage(directory, true);
    }

    /**
     * Mapped segments whose pages are taken on first write: start-up is instant, but the writer
     * then pays a page fault per 4 KiB on its hot path (half the stage-1 throughput on tmpfs).
     */
    static SegmentStorage mappedSparse(Path directory) {
        return new MappedSegmentStorage(directory, false);
    }
}
