package io.changegrid.relay.buffer;

import io.changegrid.events.frame.FrameLayout;
import java.nio.ByteBuffer;

/**
 * The layout of the event buffer's log, described once.
 *
 * <p>The log is addressed by <em>positions</em>: byte offsets in an endless log that only grow, as
 * Aeron addresses its streams. A position maps onto the segments like this, {@code segmentBytes}
 * being a power of two:
 *
 * <pre>
 *   sequence = position &gt;&gt;&gt; log2(segmentBytes)    the how-many-th segment ever written
 *   slot     = sequence % segmentCount                which segment buffer holds it
 *   offset   = position &amp; (segmentBytes - 1)      where in that buffer
 *
 *        slot 0              slot 1              slot 2              slot 3
 *   +-----------------+-----------------+-----------------+-----------------+
 *   | seq 4 (newest)  | seq 1 (oldest)  | seq 2           | seq 3           |
 *   | T T T H T.. |   | T T T T T T |pad| T T T T T T T T | T T T T T T |pad|
 *   +-----^------^----+-^---------------+-----------------+-----------------+
 *         |      |      |
 *         |      tail   head: the start of the oldest segment held
 *         first entry of the segment being filled
 * </pre>
 *
 * <p>Inside a segment, <em>entries</em> lie back to back: a transaction (its frames, exactly as
 * {@link io.changegrid.events.frame.FrameEncoder} wrote them, the last one END_OF_TRANSACTION) or a
 * lone HEARTBEAT frame. Nothing is added to the frames, so a run of entries goes to a reader, and
 * on to the wire, in one copy.
 *
 * <pre>
 *   0                                                              segmentBytes
 *   +-------+-------+-----+-----------+-------+-----+---------+--------------+
 *   | frame | frame | EOT | HEARTBEAT | frame | EOT | PADDING |   (unused)   |
 *   +-------+-------+-----+-----------+-------+-----+---------+--------------+
 *   &lt;--- transaction ---&gt; &lt;- entry -&gt; &lt;- transaction -&gt;
 *
 *   PADDING: the int {@value #PADDING_MARKER} where a frame length would be
 * </pre>
 *
 * <ul>
 *   <li>An entry never straddles two segments: one that does not fit in the rest of a segment goes
 *       to the start of the next, and a {@value #PADDING_MARKER} in place of a frame length marks
 *       the rest as unused. Fewer than {@link FrameLayout#HEADER_LENGTH} bytes left are unused
 *       without a marker: no frame fits there. So an entry is at most one segment long.
 *   <li>Every segment starts with an entry, so the writer evicts whole segments and the head is
 *       always a segment start and an entry start.
 *   <li>The writer overwrites a segment only after it moved the head past it; a reader that reads
 *       the head after copying and finds it still at or before what it copied knows the copy is
 *       good.
 * </ul>
 *
 * <p>Stateless.
 */
public final class EventBufferLayout {

    /** Written where a frame length would be: the rest of the segment holds no entry. */
    public static final int PADDING_MARKER = -1;

    private EventBufferLayout() {}

    /**
     * True if no entry starts at {@code offset}: too little room is left for a frame header, or a
     * padding marker is there. Reads only bytes the writer wrote before publishing past them.
     */
    static boolean isEndOfSegment(ByteBuffer segment, int offset, int segmentBytes) {
        return segmentBytes - offset < FrameLayout.HEADER_LENGTH
                || segment.getInt(offset + FrameLayout.LENGTH_OFFSET) == PADDING_MARKER;
    }

    /** Marks the rest of a segment from {@code offset} on as unused. */
    static void markEndOfSegment(ByteBuffer segment, int offset, int segmentBytes) {
        if (segmentBytes - offset >= FrameLayout.HEADER_LENGTH) {
            segment.putInt(offset + FrameLayout.LENGTH_OFFSET, PADDING_MARKER);
        }
    }
}
