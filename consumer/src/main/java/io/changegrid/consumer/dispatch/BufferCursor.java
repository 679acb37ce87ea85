package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.protocol.SnapshotCursor;
import java.nio.ByteBuffer;

/**
 * The dispatcher's read position in the consumer buffer, stepping from item to item: a whole
 * transaction, a heartbeat, the end of an entry (which carries the relay's checkpoint for it), or
 * before an entry's first frame the beginning of a table's snapshot copy the entry carries. Frames
 * were checked by the puller, so they are read here without checks and without copying.
 *
 * <p>A {@link #mark} remembers a position (right after the last checkpoint); {@link #rewind} goes
 * back to it to deliver again after a RETRY. The buffer keeps everything after the mark, because
 * entries are released only up to the mark.
 *
 * <p>A transaction in parts comes as one {@link #TRANSACTION} item per part, each ending with its
 * part end ({@link #continues()}); the dispatcher joins them. Entries fetched before a {@link
 * #restart} are skipped (and released) unread.
 *
 * <p>Not thread-safe: owned by the dispatcher thread.
 */
final class BufferCursor {

    static final int NOTHING_YET = ConsumerBuffer.NOTHING_YET;
    static final int FINISHED = ConsumerBuffer.FINISHED;
    static final int TRANSACTION = 1;
    static final int HEARTBEAT = 2;
    static final int ENTRY_END = 3;
    static final int SNAPSHOT_BEGINS = 4;

    private final ConsumerBuffer buffer;
    private final ByteBuffer view;
    private final EventFrame frame = new EventFrame();

    private long sequence;
    private int position = -1; // -1: entry `sequence` not opened yet
    private int end;
    private int source;
    private long markSequence;
    private int markPosition = -1;
    private int minEpoch;
    private int itemStart;
    private boolean continues;

    private long scn;
    private long timeMicros;
    private int transactionStart;
    private int endFrame;
    private int frames;
    private boolean chunk;
    private boolean completesSnapshot;
    private String snapshot;
    private SnapshotCursor begins;

    BufferCursor(ConsumerBuffer buffer) {
        this.buffer = buffer;
        this.view = buffer.view();
    }

    /**
     * Steps to the next item, waiting up to {@code timeoutNanos} for the next entry.
     *
     * @return {@link #SNAPSHOT_BEGINS}, {@link #TRANSACTION}, {@link #HEARTBEAT}, {@link
     *     #ENTRY_END}, {@link #NOTHING_YET} or {@link #FINISHED}
     */
    int next(long timeoutNanos) throws InterruptedException {
        while (position < 0) {
            int available = buffer.await(sequence, timeoutNanos);
            if (available != ConsumerBuffer.AVAILABLE) {
                return available;
            }
            if (buffer.entryEpoch(sequence) < minEpoch) {
                // Fetched before the restart: everything after the checkpoint comes again.
                sequence++;
                mark();
                buffer.release(sequence);
                continue;
            }
            open();
            begins = buffer.entryBegins(sequence);
            if (begins != null) {
                return SNAPSHOT_BEGINS;
            }
        }
        itemStart = position;
        if (position == end) {
            scn = buffer.entryLastScn(sequence);
            snapshot = buffer.entrySnapshot(sequence);
            timeMicros = 0;
            sequence++;
            position = -1;
            return ENTRY_END;
        }
        frame.wrap(view, position);
        scn = frame.scn();
        timeMicros = frame.commitTimeMicros();
        if (frame.operationCode() == Operation.HEARTBEAT.code()) {
            position += frame.length();
            return HEARTBEAT;
        }
        transactionStart = position;
        frames = 0;
        int at = position;
        while (true) {
            frame.wrap(view, at);
            if (frame.isEndOfTransaction()) {
                endFrame = at;
                chunk = frame.isSnapshot();
                continues = frame.continues();
                completesSnapshot = (frame.flags() & FrameLayout.FLAG_SNAPSHOT_COMPLETE) != 0;
                snapshot = buffer.entrySnapshot(sequence);
                position = at + frame.length();
                return TRANSACTION;
            }
            frames++;
            at += frame.length();
        }
    }

    /**
     * Goes back before the item {@link #next} just returned (a transaction or heartbeat), to return
     * it again.
     */
    void stepBack() {
        position = itemStart;
    }

    /**
     * Forgets everything buffered after the current entry and what comes in entries fetched before
     * {@code epoch}, the one {@link ConsumerBuffer#requestRestart} gave: the current entry and
     * every entry before it are released, and the mark moves after them.
     */
    void restart(int epoch) {
        minEpoch = epoch;
        if (position >= 0) {
            sequence++;
            position = -1;
        }
        mark();
        buffer.release(sequence);
    }

    /**
     * Releases every entry before the current one: its items were delivered, none is read again.
     */
    void releaseRead() {
        buffer.release(sequence);
    }

    /**
     * Whether the current transaction item is a part that the next part continues (its end has
     * {@code FLAG_CONTINUED}).
     */
    boolean continues() {
        return continues;
    }

    /** The parts of its first transaction the current entry's request said it held. */
    int entryParts() {
        return buffer.entryParts(sequence);
    }

    /** Remembers the current position, to {@link #rewind} to. */
    void mark() {
        markSequence = sequence;
        markPosition = position;
    }

    /** Goes back to the {@link #mark}. */
    void rewind() {
        sequence = markSequence;
        position = markPosition;
        if (position >= 0) {
            end = buffer.entryOffset(sequence) + buffer.entryLength(sequence);
            source = buffer.entrySource(sequence);
        }
    }

    /** The first entry the mark still needs; every entry before it may be released. */
    long markSequence() {
        return markSequence;
    }

    /** The SCN of the current transaction or heartbeat, or the checkpoint after an entry. */
    long scn() {
        return scn;
    }

    /**
     * The snapshot cursor after the current entry: at an entry end, and for a snapshot chunk (the
     * last transaction of its entry, which the cursor belongs to); null outside a snapshot.
     */
    String snapshot() {
        return snapshot;
    }

    /** At {@link #SNAPSHOT_BEGINS}: the cursor at the start of the table whose copy begins. */
    SnapshotCursor begins() {
        return begins;
    }

    /** Whether the current transaction is a snapshot chunk, not a source transaction. */
    boolean chunk() {
        return chunk;
    }

    /** Whether the current transaction is the snapshot's last chunk. */
    boolean completesSnapshot() {
        return completesSnapshot;
    }

    /** The commit (or heartbeat) time of the current item, microseconds; 0 for an entry end. */
    long timeMicros() {
        return timeMicros;
    }

    /** The relay the current entry came from. */
    int source() {
        return source;
    }

    /** The offset of the current transaction's first frame. */
    int transactionStart() {
        return transactionStart;
    }

    /** The offset of the current transaction's END_OF_TRANSACTION frame. */
    int endFrame() {
        return endFrame;
    }

    /** The number of frames of the current transaction before its END_OF_TRANSACTION frame. */
    int frames() {
        return frames;
    }

    private void open() {
        position = buffer.entryOffset(sequence);
        end = position + buffer.entryLength(sequence);
        source = buffer.entrySource(sequence);
    }
}
