package io.changegrid.relay.buffer;

import java.nio.ByteBuffer;

/**
 * One segment's memory as long as readers send from it in place: while any reader holds a pin
 * ({@link EventBufferReader#pin}), the writer never overwrites this memory; if it must evict the
 * segment meanwhile, it swaps a spare into the log instead and leaves this memory to the readers
 * until the last of them {@link #release releases} it ({@link SegmentPins}).
 *
 * <p>One instance per segment memory and generation, shared by every reader that pins it; {@code
 * count} and {@code orphaned} are guarded by the instance's monitor.
 */
public final class SegmentPin {

    private final SegmentPins pins;
    final ByteBuffer memory;
    int count;
    boolean orphaned;

    SegmentPin(SegmentPins pins, ByteBuffer memory) {
        this.pins = pins;
        this.memory = memory;
    }

    /** Ends one reader's pin: call once per successful {@link EventBufferReader#pin}. */
    public void release() {
        pins.unpin(this);
    }
}
