package io.changegrid.relay.buffer;

import java.nio.ByteBuffer;

/**
 * Segments in direct memory ({@link ByteBuffer#allocateDirect}).
 *
 * <p>Direct memory is limited by {@code -XX:MaxDirectMemorySize}, which defaults to the maximum
 * heap; a large buffer with a small heap needs the flag. The limit is checked before anything is
 * allocated, so a misconfigured relay fails at start with the flag named, not later with an {@link
 * OutOfMemoryError} in some unrelated allocation.
 *
 * <p>Thread-safe: holds no state.
 */
public record DirectSegmentStorage() implements SegmentStorage {

    @Override
    public ByteBuffer[] allocate(int segmentCount, int segmentBytes) {
        long needed = (long) segmentCount * segmentBytes;
        long max = DirectMemoryLimit.maxBytes();
        long inUse = DirectMemoryLimit.usedBytes();
        if (needed > max - inUse) {
            throw new IllegalStateException(tooLittleMemory(needed, max, inUse));
        }
        ByteBuffer[] segments = new ByteBuffer[segmentCount];
        try {
            for (int i = 0; i < segmentCount; i++) {
                segments[i] = ByteBuffer.allocateDirect(segmentBytes);
            }
        } catch (OutOfMemoryError e) {
            // Another allocation took the memory between the check and here. The segments
            // allocated so far are unreachable once this throws and are freed by their cleaners.
            throw new IllegalStateException(
                    tooLittleMemory(needed, max, DirectMemoryLimit.usedBytes()), e);
        }
        return segments;
    }

    private static String tooLittleMemory(long needed, long max, long inUse) {
        return "not enough direct memory for the event buffer: capacityBytes="
                + needed
                + ", maxDirectMemoryBytes="
                + max
                + ", inUseBytes="
                + inUse
                + "; raise -XX:MaxDirectMemorySize (it defaults to -Xmx) or use mapped segment"
                + " storage";
    }
}
