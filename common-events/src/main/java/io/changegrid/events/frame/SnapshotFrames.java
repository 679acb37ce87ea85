package io.changegrid.events.frame;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Marks encoded frames as a snapshot chunk ({@link FrameLayout#FLAG_SNAPSHOT}): a relay encodes a
 * chunk's rows with the same {@link FrameEncoder} as live rows, then sets the flag bits here and
 * recomputes each frame's checksum. Keeping the marking out of the encoder leaves the live encoding
 * path exactly as it was.
 *
 * <p>Not thread-safe: one per encoding thread (it holds a scratch checksum).
 */
public final class SnapshotFrames {

    private final CRC32C crc = new CRC32C();
    private final EventFrame frame = new EventFrame();

    /**
     * Sets {@code flags} on every frame in {@code [offset, limit)} and re-signs it.
     *
     * @param flags {@link FrameLayout#FLAG_SNAPSHOT}, optionally with more bits
     * @throws IllegalArgumentException if {@code flags} lacks {@link FrameLayout#FLAG_SNAPSHOT}
     */
    public void mark(ByteBuffer frames, int offset, int limit, int flags) {
        if ((flags & FrameLayout.FLAG_SNAPSHOT) == 0) {
            throw new IllegalArgumentException(
                    "snapshot frames need FLAG_SNAPSHOT: flags=" + Integer.toBinaryString(flags));
        }
        for (int at = offset; at < limit; ) {
            int length = frame.wrap(frames, at).length();
            frames.putShort(at + FrameLayout.FLAGS_OFFSET, (short) flags);
            frames.putInt(at + FrameLayout.CRC_OFFSET, FrameLayout.crc32c(frames, at, length, crc));
            at += length;
        }
    }
}
