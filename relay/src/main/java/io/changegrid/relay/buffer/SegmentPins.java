package io.changegrid.relay.buffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Lets readers send entries straight from the event buffer's direct segments to a socket, without
 * ever making the writer wait for them: a segment in use ({@link SegmentPin}) that the writer must
 * evict is not overwritten but swapped out of the log for a spare, and becomes a spare itself once
 * its last reader lets go.
 *
 * <p>Memory stays bounded: pins are held on at most {@code spareSegments} segments at a time (a pin
 * on one more is refused, and its reader copies instead), so at most that many segments are ever
 * out of the log, and at most that many spares are ever allocated, lazily, by the writer when it
 * first needs one. Zero spare segments turn pinning off.
 *
 * <p>Ordering with the writer (see {@link EventBuffer#enterSegment}): a reader counts its pin, then
 * reads the head; the writer moves the head, then looks at the count, each behind a full fence. So
 * either the writer sees the pin and swaps, or the reader sees the eviction and lets go.
 *
 * <p>Threading: {@link #pin} and {@link SegmentPin#release} from any reader thread; {@link
 * #beforeOverwrite} on the writer thread only. Lock order: a pin's monitor, then this one.
 */
final class SegmentPins {

    private final AtomicReferenceArray<SegmentPin> current;
    private final int segmentBytes;
    private final ArrayDeque<ByteBuffer> spares = new ArrayDeque<>();
    private int spareSegments; // guarded by this
    private int pinned; // segments with pins now; guarded by this
    private int allocated; // spares ever allocated; guarded by this
    private long swaps; // guarded by this

    SegmentPins(ByteBuffer[] segments, int segmentBytes) {
        this.segmentBytes = segmentBytes;
        this.current = new AtomicReferenceArray<>(segments.length);
        for (int slot = 0; slot < segments.length; slot++) {
            current.set(slot, new SegmentPin(this, segments[slot]));
        }
    }

    /** Allows pins on up to {@code count} segments at once (0: none); see the class comment. */
    synchronized void allow(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("spare segments must not be negative: " + count);
        }
        spareSegments = count;
    }

    /**
     * Pins the memory of {@code slot} now, or returns null when as many segments as allowed are
     * pinned already. The caller then checks the head, since the segment it wanted may have been
     * evicted already.
     */
    SegmentPin pin(int slot) {
        SegmentPin pin = current.get(slot);
        synchronized (pin) {
            if (pin.orphaned || (pin.count == 0 && !takeSegment())) {
                return null;
            }
            pin.count++;
        }
        return pin;
    }

    void unpin(SegmentPin pin) {
        synchronized (pin) {
            if (pin.count <= 0) {
                throw new IllegalStateException("segment pin released more often than taken");
            }
            if (--pin.count == 0) {
                giveSegment(pin.orphaned ? pin.memory : null);
            }
        }
    }

    /**
     * Writer, after the head moved past the segment of {@code slot} and before anything in it is
     * overwritten: the memory to write the slot's next segment into. The slot's own memory if no
     * reader holds it; else a spare, and the held memory leaves the log.
     */
    ByteBuffer beforeOverwrite(int slot, ByteBuffer memory) {
        SegmentPin pin = current.get(slot);
        synchronized (pin) {
            if (pin.count == 0) {
                return memory;
            }
            pin.orphaned = true;
        }
        ByteBuffer spare = takeSpare();
        current.set(slot, new SegmentPin(this, spare));
        return spare;
    }

    /** Segments swapped out of the log because readers were sending from them. */
    synchronized long swaps() {
        return swaps;
    }

    /** Segments pinned now. */
    synchronized int pinned() {
        return pinned;
    }

    private synchronized boolean takeSegment() {
        if (pinned >= spareSegments) {
            return false;
        }
        pinned++;
        return true;
    }

    private synchronized void giveSegment(ByteBuffer spare) {
        pinned--;
        if (spare != null) {
            spares.add(spare);
        }
    }

    private synchronized ByteBuffer takeSpare() {
        swaps++;
        ByteBuffer spare = spares.poll();
        if (spare == null) {
            // At most one per segment pinned, so at most spareSegments: see the class comment.
            allocated++;
            spare = ByteBuffer.allocateDirect(segmentBytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        return spare;
    }
}
