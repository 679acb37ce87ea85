package io.changegrid.relay.buffer;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import java.nio.ByteBuffer;

/**
 * Checks that bytes offered to {@link EventBuffer#append} are one entry: whole frames back to back
 * that all carry the given SCN, ending with END_OF_TRANSACTION and holding no other END or
 * HEARTBEAT, or a single HEARTBEAT frame. Readers walk entries by these rules without checking them
 * again, so the writer checks once here; headers only, since the encoder computed the checksums.
 * The publisher's path ({@link EventBuffer#appendEncoded}) takes the fetcher's word for the shape,
 * which its encoder guarantees, and {@link #checkFirst checks the first header} only.
 *
 * <p>Not thread-safe: the writer owns one.
 */
final class EntryShape {

    private static final int END_OF_TRANSACTION = Operation.END_OF_TRANSACTION.code();
    private static final int HEARTBEAT = Operation.HEARTBEAT.code();

    /** {@link #kind}: a transaction, or its last part. */
    static final int TRANSACTION = 0;

    /** {@link #kind}: a lone heartbeat. */
    static final int HEARTBEAT_ENTRY = 1;

    /** {@link #kind}: a part of a transaction that the next entry continues. */
    static final int PART = 2;

    private final EventFrame frame = new EventFrame();

    /**
     * Checks the entry in {@code [offset, offset + length)} of {@code source}.
     *
     * @return true for a heartbeat, false for a transaction
     * @throws IllegalArgumentException saying what does not fit and where
     */
    boolean check(long scn, ByteBuffer source, int offset, int length) {
        int kind = kind(scn, source, offset, length);
        if (kind == PART) {
            throw misfit(
                    "a part end where the transaction should end", scn, offset, length, offset);
        }
        return kind == HEARTBEAT_ENTRY;
    }

    /**
     * Checks the entry as {@link #check} does, taking a part ({@link FrameLayout#FLAG_CONTINUED})
     * too, and says which kind it is: {@link #TRANSACTION}, {@link #HEARTBEAT_ENTRY} or {@link
     * #PART}.
     */
    int kind(long scn, ByteBuffer source, int offset, int length) {
        int end = offset + length;
        int at = offset;
        int frames = 0;
        while (true) {
            if (end - at < FrameLayout.HEADER_LENGTH) {
                throw misfit("truncated frame header", scn, offset, length, at);
            }
            frame.wrap(source, at);
            int frameLength = frame.length();
            if (frameLength < FrameLayout.HEADER_LENGTH || frameLength > end - at) {
                throw misfit("frame length out of bounds", scn, offset, length, at);
            }
            if (frame.scn() != scn) {
                throw new IllegalArgumentException(
                        "frame SCN differs from the entry's: scn="
                                + scn
                                + ", frameScn="
                                + frame.scn()
                                + ", at="
                                + at);
            }
            int op = frame.operationCode();
            at += frameLength;
            frames++;
            if (op == HEARTBEAT) {
                if (frames != 1 || at != end) {
                    throw misfit("heartbeat not alone", scn, offset, length, at - frameLength);
                }
                return HEARTBEAT_ENTRY;
            }
            if (op == END_OF_TRANSACTION) {
                if (at != end) {
                    throw misfit("bytes after END_OF_TRANSACTION", scn, offset, length, at);
                }
                return frame.continues() ? PART : TRANSACTION;
            }
        }
    }

    /**
     * Checks only the first frame's header of the entry in {@code [offset, offset + length)}: that
     * it fits and carries the entry's SCN. For entries an encoder wrote whole, where walking every
     * frame would re-check what the encoder guarantees.
     *
     * @throws IllegalArgumentException saying what does not fit and where
     */
    void checkFirst(long scn, ByteBuffer source, int offset, int length) {
        if (length < FrameLayout.HEADER_LENGTH) {
            throw misfit("truncated frame header", scn, offset, length, offset);
        }
        frame.wrap(source, offset);
        if (frame.length() < FrameLayout.HEADER_LENGTH || frame.length() > length) {
            throw misfit("frame length out of bounds", scn, offset, length, offset);
        }
        if (frame.scn() != scn) {
            throw new IllegalArgumentException(
                    "frame SCN differs from the entry's: scn="
                            + scn
                            + ", frameScn="
                            + frame.scn()
                            + ", at="
                            + offset);
        }
    }

    private static IllegalArgumentException misfit(
            String what, long scn, int offset, int length, int at) {
        return new IllegalArgumentException(
                "not one whole transaction or heartbeat, "
                        + what
                        + ": scn="
                        + scn
                        + ", offset="
                        + offset
                        + ", length="
                        + length
                        + ", at="
                        + at);
    }
}
