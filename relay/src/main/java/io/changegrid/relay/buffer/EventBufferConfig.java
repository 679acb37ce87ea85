package io.changegrid.relay.buffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The size and storage of an {@link EventBuffer}, validated at construction: every problem is
 * reported at once in one {@link IllegalArgumentException}.
 *
 * <p>The buffer holds {@code capacityBytes / segmentBytes} segments of {@code segmentBytes} each. A
 * transaction never straddles two segments, so {@code segmentBytes} is also the largest transaction
 * the buffer accepts; and the writer evicts a whole segment at a time, so between {@code
 * capacityBytes - segmentBytes} and {@code capacityBytes} bytes of log are held (less the unused
 * ends of segments).
 *
 * <p>Sizing for the whitepaper's load: 4.8 M events of ~1,100 bytes are ~5.3 GB, e.g. 22 segments
 * of 256 MiB (5.5 GiB) held in {@linkplain SegmentStorage#mapped mapped} segments or in direct
 * memory with {@code -XX:MaxDirectMemorySize=6g}; the heap holds only the sparse SCN index, about
 * 12 bytes per {@code indexStrideBytes} of log (4 MiB here at the default stride).
 *
 * <p>Immutable, so safe to share between threads.
 *
 * @param capacityBytes total bytes of the log: a multiple of {@code segmentBytes}, at least {@value
 *     #MIN_SEGMENTS} and at most {@value #MAX_SEGMENTS} segments; may exceed 2 GiB
 * @param segmentBytes bytes per segment: a power of two from {@value #MIN_SEGMENT_BYTES} to {@value
 *     #MAX_SEGMENT_BYTES} (1 GiB, the largest power of two a {@link java.nio.ByteBuffer} can hold)
 * @param indexStrideBytes the log bytes between two SCN index entries: from {@value
 *     #MIN_INDEX_STRIDE_BYTES} to {@code segmentBytes}; smaller means faster seeks and more heap
 * @param storage where segment memory comes from
 */
public record EventBufferConfig(
        long capacityBytes, int segmentBytes, int indexStrideBytes, SegmentStorage storage) {

    public static final int MIN_SEGMENT_BYTES = 4 * 1024;
    public static final int MAX_SEGMENT_BYTES = 1 << 30;
    public static final int MIN_SEGMENTS = 2;
    public static final int MAX_SEGMENTS = 1 << 20;
    public static final int MIN_INDEX_STRIDE_BYTES = 256;
    public static final int DEFAULT_INDEX_STRIDE_BYTES = 16 * 1024;

    /** At most this many index entries (12 bytes of heap each): 192 MiB of heap. */
    public static final long MAX_INDEX_ENTRIES = 1L << 24;

    public EventBufferConfig {
        List<String> problems = new ArrayList<>();
        boolean segmentValid = true;
        if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > MAX_SEGMENT_BYTES) {
            problems.add(
                    "segment size out of range: segmentBytes="
                            + segmentBytes
                            + ", min="
                            + MIN_SEGMENT_BYTES
                            + ", max="
                            + MAX_SEGMENT_BYTES);
            segmentValid = false;
        } else if (Integer.bitCount(segmentBytes) != 1) {
            problems.add("segment size must be a power of two: segmentBytes=" + segmentBytes);
            segmentValid = false;
        }
        if (capacityBytes <= 0) {
            problems.add("capacity must be positive: capacityBytes=" + capacityBytes);
        } else if (segmentValid) {
            if (capacityBytes % segmentBytes != 0) {
                problems.add(
                        "capacity must be a multiple of the segment size: capacityBytes="
                                + capacityBytes
                                + ", segmentBytes="
                                + segmentBytes);
            } else {
                long segments = capacityBytes / segmentBytes;
                if (segments < MIN_SEGMENTS || segments > MAX_SEGMENTS) {
                    problems.add(
                            "segment count out of range: segments="
                                    + segments
                                    + ", min="
                                    + MIN_SEGMENTS
                                    + ", max="
                                    + MAX_SEGMENTS
                                    + ", capacityBytes="
                                    + capacityBytes
                                    + ", segmentBytes="
                                    + segmentBytes);
                }
            }
        }
        if (indexStrideBytes < MIN_INDEX_STRIDE_BYTES
                || (segmentValid && indexStrideBytes > segmentBytes)) {
            problems.add(
                    "index stride out of range: indexStrideBytes="
                            + indexStrideBytes
                            + ", min="
                            + MIN_INDEX_STRIDE_BYTES
                            + ", max=segmentBytes="
                            + segmentBytes);
        } else if (capacityBytes > 0 && capacityBytes / indexStrideBytes > MAX_INDEX_ENTRIES) {
            problems.add(
                    "index stride too small for the capacity, raise it: indexStrideBytes="
                            + indexStrideBytes
                            + ", capacityBytes="
                            + capacityBytes
                            + ", maxIndexEntries="
                            + MAX_INDEX_ENTRIES);
        }
        if (storage == null) {
            problems.add("segment storage must be given: storage=null");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "invalid event buffer config: " + String.join("; ", problems));
        }
    }

    /** A buffer in direct memory, with the default index stride. */
    public static EventBufferConfig direct(long capacityBytes, int segmentBytes) {
        return new EventBufferConfig(
                capacityBytes, segmentBytes, defaultStride(segmentBytes), SegmentStorage.direct());
    }

    /** A buffer in files mapped from {@code directory} and unlinked at once. */
    public static EventBufferConfig mapped(long capacityBytes, int segmentBytes, Path directory) {
        return new EventBufferConfig(
                capacityBytes,
                segmentBytes,
                defaultStride(segmentBytes),
                SegmentStorage.mapped(directory));
    }

    /** The same buffer with its segments from {@code segmentStorage}. */
    public EventBufferConfig withStorage(SegmentStorage segmentStorage) {
        return new EventBufferConfig(capacityBytes, segmentBytes, indexStrideBytes, segmentStorage);
    }

    /** The same buffer with another index stride. */
    public EventBufferConfig withIndexStrideBytes(int strideBytes) {
        return new EventBufferConfig(capacityBytes, segmentBytes, strideBytes, storage);
    }

    /**
     * The default stride, shrunk for small segments so that even they are indexed; an invalid
     * segment size gets a stride that is reported only as the segment size's problem.
     */
    private static int defaultStride(int segmentBytes) {
        return Math.max(MIN_INDEX_STRIDE_BYTES, Math.min(DEFAULT_INDEX_STRIDE_BYTES, segmentBytes));
    }

    /** The number of segments. */
    public int segmentCount() {
        return (int) (capacityBytes / segmentBytes);
    }
}
