package io.changegrid.relay.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The sparse SCN index: per segment slot, the SCN and offset of the first entry that starts in each
 * {@code strideBytes} of the segment, in primitive arrays allocated once.
 *
 * <p>A segment's first entry is always indexed, so entry 0 of a slot is the segment's first SCN: a
 * seek binary-searches the segments by first SCN, then the chosen segment's entries, then scans
 * frames forward from there for at most about one stride. The heap cost is fixed: 12 bytes per
 * stride of capacity (a 5.5 GiB buffer at a 16 KiB stride: about 4 MiB), however many transactions
 * pass through.
 *
 * <p>Threading: written by the buffer's single writer; read by any thread without locks. Within a
 * lap of a segment the writer only adds entries, publishing each with a release store of the slot's
 * count, so entries below the count a reader acquired are complete. A slot is cleared for its next
 * lap only after the head moved past its old contents, so a reader that validates the head after
 * reading (as {@link EventBufferReader} does) discards anything read from a slot in flux.
 */
final class ScnIndex {

    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(int[].class);

    private final int strideBytes;
    private final int entriesPerSegment;
    private final long[] scns;
    private final int[] offsets;
    private final int[] counts;

    /**
     * Writer only: per slot, one more than the stride bucket of its last indexed entry (0: none).
     * Per slot because the parts of a large transaction are indexed when it is published, after the
     * writer entered the later segments they fill.
     */
    private final int[] bucketsUsed;

    ScnIndex(int segmentCount, int segmentBytes, int strideBytes) {
        this.strideBytes = strideBytes;
        this.entriesPerSegment = (segmentBytes + strideBytes - 1) / strideBytes;
        this.scns = new long[segmentCount * entriesPerSegment];
        this.offsets = new int[segmentCount * entriesPerSegment];
        this.counts = new int[segmentCount];
        this.bucketsUsed = new int[segmentCount];
    }

    /** Writer: forgets a slot's entries before the slot is reused for a new segment. */
    void clear(int slot) {
        COUNT.setRelease(counts, slot, 0);
        bucketsUsed[slot] = 0;
    }

    /** Writer: notes an entry at {@code offset} of the segment being filled. */
    void onEntry(int slot, long scn, int offset) {
        int bucket = offset / strideBytes;
        if (bucket >= bucketsUsed[slot]) {
            int count = counts[slot];
            int at = slot * entriesPerSegment + count;
            scns[at] = scn;
            offsets[at] = offset;
            COUNT.setRelease(counts, slot, count + 1);
            bucketsUsed[slot] = bucket + 1;
        }
    }

    /**
     * The SCN of the first entry of the segment in {@code slot}. Only meaningful for a segment that
     * holds a published entry.
     */
    long firstScn(int slot) {
        return scns[slot * entriesPerSegment];
    }

    /**
     * The offset of the last indexed entry of the segment in {@code slot} whose SCN is at most
     * {@code scn}, or 0 if there is none. Never fails, whatever a concurrent writer does: the
     * result is then some offset inside the segment, which the caller's validation discards.
     */
    int floorOffset(int slot, long scn) {
        int base = slot * entriesPerSegment;
        int low = 0;
        int high = (int) COUNT.getAcquire(counts, slot) - 1;
        int found = 0;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (scns[base + mid] <= scn) {
                found = offsets[base + mid];
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }

    /** The number of entries indexed in {@code slot}; for tests and introspection. */
    int count(int slot) {
        return (int) COUNT.getAcquire(counts, slot);
    }

    /** Heap bytes held by the index arrays. */
    long heapBytes() {
        return (long) scns.length * Long.BYTES
                + (long) offsets.length * Integer.BYTES
                + (long) counts.length * Integer.BYTES * 2;
    }
}
