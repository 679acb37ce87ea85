package io.changegrid.relay.buffer;

/**
 * Where the publisher ties the buffer's segments to source positions, so that a restarted relay can
 * recover the buffer and read the source only from after its last entry ({@link SegmentFiles},
 * {@link BufferRecovery}). Buffers that do not outlive the process record nothing ({@link #NONE}).
 *
 * <p>Threading: the buffer's writer thread only, right after the {@link EventBuffer#append} it
 * describes.
 */
public interface SegmentPositions {

    /** Records nothing: for buffers in direct memory or unlinked files. */
    SegmentPositions NONE =
            new SegmentPositions() {
                @Override
                public void segmentStarted(long sequence, long floorScn, String floorPosition) {}

                @Override
                public void appended(long sequence, long scn, int endOffset, String position) {}
            };

    /**
     * The writer entered segment {@code sequence}: the source position just before its first entry,
     * and the SCN of the entry before that one.
     */
    void segmentStarted(long sequence, long floorScn, String floorPosition);

    /**
     * An entry of SCN {@code scn} was appended to segment {@code sequence}, ending at {@code
     * endOffset} of the segment; {@code position} is the source position right after it.
     */
    void appended(long sequence, long scn, int endOffset, String position);
}
