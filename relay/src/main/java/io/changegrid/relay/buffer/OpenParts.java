package io.changegrid.relay.buffer;

import java.util.Arrays;

/**
 * The parts of the transaction an {@link EventBuffer} is writing but has not published yet: a
 * transaction too large for one segment arrives as parts ({@link
 * io.changegrid.events.frame.FrameLayout#FLAG_CONTINUED}); each is written into the log at once,
 * but indexed and made visible only with the last one, so that readers see the whole transaction or
 * none of it.
 *
 * <p>Not thread-safe: the buffer's writer owns one.
 */
final class OpenParts {

    private long scn = EventBuffer.NULL_SCN;
    private long floorPosition;
    private long[] starts = new long[16];
    private int count;

    /** Whether a transaction's parts are being written. */
    boolean isOpen() {
        return count > 0;
    }

    /** The SCN of the open transaction; meaningful only while {@link #isOpen()}. */
    long scn() {
        return scn;
    }

    /**
     * The log's published tail when the first part came: where an abandoned write rolls back to.
     */
    long floorPosition() {
        return floorPosition;
    }

    /** Notes a part written at {@code start}; the first one opens the transaction. */
    void add(long partScn, long tailBefore, long start) {
        if (count == 0) {
            scn = partScn;
            floorPosition = tailBefore;
        }
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
        }
        starts[count++] = start;
    }

    /** The number of parts written. */
    int count() {
        return count;
    }

    /** Where part {@code i} starts in the log. */
    long start(int i) {
        return starts[i];
    }

    /** Forgets the parts, once published or abandoned. */
    void clear() {
        count = 0;
        scn = EventBuffer.NULL_SCN;
    }
}
