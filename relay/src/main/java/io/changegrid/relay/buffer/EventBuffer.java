package io.changegrid.relay.buffer;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The relay's event buffer: whole source transactions of serialized frames in one circular log over
 * off-heap segments, laid out as {@link EventBufferLayout} describes.
 *
 * <p>The publisher {@link #append appends} one entry at a time: a transaction (frames ending with
 * END_OF_TRANSACTION) or a heartbeat. When the log is full, the writer evicts the oldest segment,
 * and with it the oldest whole transactions, without waiting for anyone. Readers copy whole
 * transactions after a checkpoint SCN through their own {@link EventBufferReader} ({@link
 * #newReader()}), and learn of new data from {@link #addListener listeners} or {@link
 * #newestScn()}.
 *
 * <p>A transaction larger than a segment comes in parts ({@link #appendPart}, then its last part
 * through {@link #append} or {@link #appendEncoded}): each part is an entry of its own with the
 * transaction's SCN, written as it comes and made visible with the last one. Evicting any part
 * evicts the transaction for readers: the highest evicted SCN becomes its SCN, so nobody starts in
 * its middle. A transaction must fit in the log less two segments ({@link #LARGER_THAN_BUFFER}).
 *
 * <p>SCNs never decrease: each transaction's SCN is above every SCN appended before it, and a
 * heartbeat's is at least the last one (heartbeats may repeat). A transaction at a heartbeat's SCN
 * is refused because a consumer checkpointed at that heartbeat asks for SCNs above it, and would
 * never see the transaction.
 *
 * <p>Threading: exactly one writer thread calls {@link #append}; any number of threads read, each
 * with its own reader; getters and listener registration are safe from any thread. Readers never
 * block the writer and the writer never waits for readers: an append becomes visible, all of it at
 * once, through a release store of the tail position after its bytes are written; an eviction moves
 * the head position before any byte of the evicted segment is overwritten, and readers check the
 * head after copying to discard copies the writer overwrote. A reader that sends in place pins the
 * segment instead ({@link SegmentPins}): the writer then writes into a spare rather than wait.
 */
public final class EventBuffer implements AutoCloseable {

    /** The SCN of nothing: no entry appended, none evicted. */
    public static final long NULL_SCN = -1;

    /** Returned by {@link #append} for an entry longer than {@link #maxTransactionBytes()}. */
    public static final long TRANSACTION_TOO_LARGE = -1;

    /**
     * Returned by {@link #appendPart} (and the last part's {@link #appendEncoded}) when the parts
     * of one transaction would need more of the log than it has: writing on would evict the entry
     * before the transaction, or the transaction itself. Nothing of the part was written; the
     * transaction's earlier parts stay unpublished until {@link #abandonParts()}.
     */
    public static final long LARGER_THAN_BUFFER = -2;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle NEWEST_SCN;
    private static final VarHandle OLDEST_SCN;
    private static final VarHandle HIGHEST_EVICTED_SCN;
    private static final VarHandle TRANSACTIONS_APPENDED;
    private static final VarHandle TRANSACTIONS_EVICTED;
    private static final VarHandle SEGMENTS_EVICTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(EventBuffer.class, "headPosition", long.class);
            TAIL = lookup.findVarHandle(EventBuffer.class, "tailPosition", long.class);
            NEWEST_SCN = lookup.findVarHandle(EventBuffer.class, "newestScn", long.class);
            OLDEST_SCN = lookup.findVarHandle(EventBuffer.class, "oldestScn", long.class);
            HIGHEST_EVICTED_SCN =
                    lookup.findVarHandle(EventBuffer.class, "highestEvictedScn", long.class);
            TRANSACTIONS_APPENDED =
                    lookup.findVarHandle(EventBuffer.class, "transactionsAppended", long.class);
            TRANSACTIONS_EVICTED =
                    lookup.findVarHandle(EventBuffer.class, "transactionsEvicted", long.class);
            SEGMENTS_EVICTED =
                    lookup.findVarHandle(EventBuffer.class, "segmentsEvicted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final EventBufferConfig config;
    private final int segmentBytes;
    private final int segmentCount;
    private final int segmentShift;
    private final int offsetMask;
    private final ScnIndex index;
    private final AppendListeners listeners = new AppendListeners();
    private final SegmentPins pins;

    /** Null once closed; readers fetch it on every read so that closing lets the memory go. */
    private volatile ByteBuffer[] segments;

    // Shared state: written by the writer only, with release stores; read by anyone.
    private volatile long headPosition;
    private volatile long tailPosition;
    private volatile long newestScn = NULL_SCN;
    private volatile long oldestScn = NULL_SCN;
    private volatile long highestEvictedScn = NULL_SCN;
    private volatile long transactionsAppended;
    private volatile long transactionsEvicted;
    private volatile long segmentsEvicted;

    // Writer-only state.
    private final EntryShape entryShape = new EntryShape();
    private final OpenParts parts = new OpenParts();
    private final long[] segmentLastScn;
    private final int[] segmentEntries;
    private long writePosition;
    private long lastScn = NULL_SCN;

    /**
     * Allocates the whole capacity now, from the configured storage.
     *
     * @throws IllegalStateException if the memory is not available, naming the limit to raise
     */
    public EventBuffer(EventBufferConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.segmentBytes = config.segmentBytes();
        this.segmentCount = config.segmentCount();
        this.segmentShift = Integer.numberOfTrailingZeros(segmentBytes);
        this.offsetMask = segmentBytes - 1;
        this.index = new ScnIndex(segmentCount, segmentBytes, config.indexStrideBytes());
        this.segmentLastScn = new long[segmentCount];
        this.segmentEntries = new int[segmentCount];
        ByteBuffer[] allocated = config.storage().allocate(segmentCount, segmentBytes);
        for (ByteBuffer segment : allocated) {
            segment.order(ByteOrder.LITTLE_ENDIAN);
        }
        this.segments = allocated;
        this.pins = new SegmentPins(allocated, segmentBytes);
    }

    /**
     * Appends one entry: a whole transaction, or one heartbeat frame. Readers see all of it or none
     * of it. Writer thread only.
     *
     * @param scn the entry's SCN, which every frame in it carries
     * @param frames holds the entry's frames back to back, little-endian, e.g. a {@link
     *     io.changegrid.events.frame.FrameEncoder}'s buffer; its position and limit are not used
     *     beyond bounds checks, nor changed
     * @param offset where the first frame starts
     * @param length the entry's length in bytes
     * @return the log position after the entry, or {@link #TRANSACTION_TOO_LARGE} if {@code length}
     *     exceeds {@link #maxTransactionBytes()}: nothing was appended, and what to do (fail the
     *     source, split, skip) is the caller's decision
     * @throws IllegalArgumentException if the bytes are not one whole transaction or heartbeat of
     *     this SCN, or the SCN goes backwards
     * @throws IllegalStateException if the buffer is closed
     */
    public long append(long scn, ByteBuffer frames, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, frames.limit());
        if (length > segmentBytes) {
            return TRANSACTION_TOO_LARGE;
        }
        return write(scn, frames, offset, length, entryShape.check(scn, frames, offset, length));
    }

    /**
     * Appends one entry an encoder produced whole, as {@link #append} does, without walking its
     * frames: the publisher's path, where the fetcher's {@link
     * io.changegrid.events.frame.FrameEncoder} wrote exactly one transaction or one heartbeat and
     * said which. Only the first frame's header is checked (its SCN and length).
     *
     * @param heartbeat whether the entry is one heartbeat frame
     * @return as {@link #append}
     * @throws IllegalArgumentException if the first frame does not carry {@code scn} or does not
     *     fit, or the SCN goes backwards
     */
    public long appendEncoded(
            long scn, ByteBuffer frames, int offset, int length, boolean heartbeat) {
        Objects.checkFromIndexSize(offset, length, frames.limit());
        if (length > segmentBytes) {
            return TRANSACTION_TOO_LARGE;
        }
        entryShape.checkFirst(scn, frames, offset, length);
        return write(scn, frames, offset, length, heartbeat);
    }

    /**
     * Writes one part of a transaction too large for a segment, all but the last: frames ending
     * with an END_OF_TRANSACTION marked {@link
     * io.changegrid.events.frame.FrameLayout#FLAG_CONTINUED}. The part goes into the log at once
     * but stays invisible, unindexed and uncounted until the transaction's last part is appended
     * through {@link #append} or {@link #appendEncoded}: then readers see every part at once.
     * Nothing else may be appended in between. Writer thread only.
     *
     * @return the log position after the part, or {@link #TRANSACTION_TOO_LARGE} for a part longer
     *     than a segment, or {@link #LARGER_THAN_BUFFER}; in both cases nothing was written
     * @throws IllegalArgumentException if the SCN is not the open transaction's, or not above the
     *     last appended for a first part
     */
    public long appendPart(long scn, ByteBuffer frames, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, frames.limit());
        if (length > segmentBytes) {
            return TRANSACTION_TOO_LARGE;
        }
        entryShape.checkFirst(scn, frames, offset, length);
        ByteBuffer[] log = openSegments();
        checkScn(scn, false);
        long floor = parts.isOpen() ? parts.floorPosition() : writePosition;
        long position = place(log, length, floor);
        if (position < 0) {
            return position;
        }
        log[slotOf(position >>> segmentShift)].put(
                (int) position & offsetMask, frames, offset, length);
        parts.add(scn, writePosition, position);
        writePosition = position + length;
        return writePosition;
    }

    /**
     * Drops the parts written since the last published entry (a fetcher whose connection broke in
     * the middle of a large transaction reads it again from its start). Readers never saw them.
     * Writer thread only; nothing happens when no parts are open.
     */
    public void abandonParts() {
        if (parts.isOpen()) {
            writePosition = parts.floorPosition();
            parts.clear();
        }
    }

    /** Whether a transaction's parts were written and its last part has not come yet. */
    public boolean hasOpenParts() {
        return parts.isOpen();
    }

    private long write(long scn, ByteBuffer frames, int offset, int length, boolean heartbeat) {
        ByteBuffer[] log = openSegments();
        checkScn(scn, heartbeat);
        long position = place(log, length, parts.isOpen() ? parts.floorPosition() : writePosition);
        if (position < 0) {
            return position;
        }
        log[slotOf(position >>> segmentShift)].put(
                (int) position & offsetMask, frames, offset, length);
        int entries = parts.count() + 1;
        for (int i = 0; i < parts.count(); i++) {
            noteEntry(scn, parts.start(i));
        }
        noteEntry(scn, position);
        parts.clear();

        long tail = position + length;
        writePosition = tail;
        lastScn = scn;
        TAIL.setRelease(this, tail);
        NEWEST_SCN.setRelease(this, scn);
        TRANSACTIONS_APPENDED.setRelease(this, transactionsAppended + entries);
        listeners.onAppend(scn);
        return tail;
    }

    /**
     * Where an entry of {@code length} bytes goes: at the write position, or at the start of the
     * next segment (marking the rest of this one unused), entering and evicting as needed. {@link
     * #LARGER_THAN_BUFFER} if entering the next segment would evict the segment holding {@code
     * floor}, the log's published tail before the open transaction.
     */
    private long place(ByteBuffer[] log, int length, long floor) {
        long position = writePosition;
        int offsetInSegment = (int) position & offsetMask;
        if (offsetInSegment + length > segmentBytes) {
            position = ((position >>> segmentShift) + 1) << segmentShift;
            offsetInSegment = 0;
        }
        if (offsetInSegment == 0) {
            long sequence = position >>> segmentShift;
            long floorSequence = floor == 0 ? 0 : (floor - 1) >>> segmentShift;
            if (parts.isOpen() && sequence - segmentCount + 1 > floorSequence) {
                return LARGER_THAN_BUFFER;
            }
            if (position != writePosition) {
                EventBufferLayout.markEndOfSegment(
                        log[slotOf(writePosition >>> segmentShift)],
                        (int) writePosition & offsetMask,
                        segmentBytes);
            }
            enterSegment(sequence, slotOf(sequence));
        }
        return position;
    }

    /** Indexes and counts a written entry of SCN {@code scn} at {@code position}. */
    private void noteEntry(long scn, long position) {
        int slot = slotOf(position >>> segmentShift);
        index.onEntry(slot, scn, (int) position & offsetMask);
        segmentLastScn[slot] = scn;
        segmentEntries[slot]++;
        if (oldestScn == NULL_SCN) {
            OLDEST_SCN.setRelease(this, scn);
        }
    }

    private void checkScn(long scn, boolean heartbeat) {
        if (parts.isOpen()) {
            if (heartbeat || scn != parts.scn()) {
                throw new IllegalArgumentException(
                        "entry inside a transaction whose parts are open: scn="
                                + scn
                                + ", heartbeat="
                                + heartbeat
                                + ", openScn="
                                + parts.scn()
                                + ", parts="
                                + parts.count());
            }
            return;
        }
        if (scn < 0) {
            throw new IllegalArgumentException("SCN must not be negative: scn=" + scn);
        }
        if (heartbeat ? scn < lastScn : scn <= lastScn) {
            throw new IllegalArgumentException(
                    (heartbeat
                                    ? "heartbeat SCN below the last appended SCN"
                                    : "transaction SCN not above the last appended SCN")
                            + ": scn="
                            + scn
                            + ", lastScn="
                            + lastScn);
        }
    }

    /** Starts writing segment {@code sequence}, evicting the segment the slot held before. */
    private void enterSegment(long sequence, int slot) {
        long newHeadSequence = sequence - segmentCount + 1;
        // Above the head unless the log holds fewer segments than it has slots, which a
        // recovered log may (see restore): then the slot held nothing and nothing is evicted.
        if (newHeadSequence > headPosition >>> segmentShift) {
            // Stored in the reverse of the order readers read them, each with release semantics:
            // a reader that sees the new head sees the new evicted SCN, and one that sees the new
            // evicted SCN (and answers TOO_OLD) sees the new oldest SCN, not one at or below its
            // checkpoint.
            OLDEST_SCN.setRelease(this, index.firstScn(slotOf(newHeadSequence)));
            HIGHEST_EVICTED_SCN.setRelease(this, segmentLastScn[slot]);
            TRANSACTIONS_EVICTED.setRelease(this, transactionsEvicted + segmentEntries[slot]);
            SEGMENTS_EVICTED.setRelease(this, segmentsEvicted + 1);
            HEAD.setRelease(this, newHeadSequence << segmentShift);
            // The head must be visible before any byte of the old segment changes, or a
            // reader could copy overwritten bytes and still find the head where it was. A full
            // fence: the pins are read after it (see SegmentPins).
            VarHandle.fullFence();
            ByteBuffer[] log = openSegments();
            ByteBuffer memory = pins.beforeOverwrite(slot, log[slot]);
            if (memory != log[slot]) {
                // Readers send from the old memory: it left the log, a spare takes its place.
                log[slot] = memory;
            }
        }
        index.clear(slot);
        segmentEntries[slot] = 0;
    }

    /**
     * Declares that this buffer's timeline starts after {@code scn}: a relay that starts (or
     * restarts) at a source position cannot serve anything at or below it, so checkpoints below it
     * answer {@link EventBufferReader#TOO_OLD} like evicted ones, and appends must go above it.
     * Writer thread, before the first append.
     *
     * @throws IllegalStateException if something was appended already
     */
    public void startAfter(long scn) {
        if (transactionsAppended != 0) {
            throw new IllegalStateException(
                    "buffer already has entries: transactionsAppended=" + transactionsAppended);
        }
        lastScn = scn;
        HIGHEST_EVICTED_SCN.setRelease(this, scn);
    }

    /**
     * Takes the log the segments already hold, from the start of segment {@code headSequence} to
     * {@code tailPosition}, as if it had been appended: rebuilds the SCN index and the counters,
     * and declares the timeline to start after {@code floorScn}, the SCN before the first entry
     * ({@link #startAfter}). For {@link BufferRecovery}, which has checked every entry in that
     * range. Writer thread, before the first append.
     *
     * @throws IllegalStateException if something was appended already
     */
    void restore(long headSequence, long tailPosition, long floorScn) {
        if (transactionsAppended != 0) {
            throw new IllegalStateException(
                    "buffer already has entries: transactionsAppended=" + transactionsAppended);
        }
        ByteBuffer[] log = openSegments();
        long entries = 0;
        long first = NULL_SCN;
        long last = floorScn;
        long tailSequence = (tailPosition - 1) >>> segmentShift;
        for (long sequence = headSequence; sequence <= tailSequence; sequence++) {
            int slot = slotOf(sequence);
            ByteBuffer segment = log[slot];
            int limit =
                    sequence == tailSequence
                            ? (int) (tailPosition - (sequence << segmentShift))
                            : segmentBytes;
            index.clear(slot);
            segmentEntries[slot] = 0;
            int offset = 0;
            while (offset < limit
                    && !EventBufferLayout.isEndOfSegment(segment, offset, segmentBytes)) {
                long scn = segment.getLong(offset + FrameLayout.SCN_OFFSET);
                index.onEntry(slot, scn, offset);
                segmentLastScn[slot] = scn;
                segmentEntries[slot]++;
                entries++;
                if (first == NULL_SCN) {
                    first = scn;
                }
                last = scn;
                offset = entryEnd(segment, offset);
            }
        }
        writePosition = tailPosition;
        lastScn = last;
        HIGHEST_EVICTED_SCN.setRelease(this, floorScn);
        OLDEST_SCN.setRelease(this, first);
        HEAD.setRelease(this, headSequence << segmentShift);
        TAIL.setRelease(this, tailPosition);
        NEWEST_SCN.setRelease(this, entries == 0 ? NULL_SCN : last);
        TRANSACTIONS_APPENDED.setRelease(this, entries);
    }

    /** The end of the (checked) entry at {@code offset}: after its END or lone HEARTBEAT. */
    private static int entryEnd(ByteBuffer segment, int offset) {
        int at = offset;
        while (true) {
            int length = segment.getInt(at + FrameLayout.LENGTH_OFFSET);
            int op = segment.get(at + FrameLayout.OPERATION_OFFSET) & 0xFF;
            at += length;
            if (op == Operation.END_OF_TRANSACTION.code() || op == Operation.HEARTBEAT.code()) {
                return at;
            }
        }
    }

    /** A new cursor for one reader thread. */
    public EventBufferReader newReader() {
        openSegments();
        return new EventBufferReader(this);
    }

    /**
     * Lets readers {@linkplain EventBufferReader#pin pin} up to {@code spareSegments} segments at a
     * time and send from them in place, at the cost of up to that many more segments of direct
     * memory, allocated only when the writer must evict a segment being sent ({@link SegmentPins}).
     * Only direct storage: a segment of a file-backed log is never swapped out of it. Call before
     * serving.
     */
    public void allowPins(int spareSegments) {
        pins.allow(config.storage() instanceof DirectSegmentStorage ? spareSegments : 0);
    }

    /** Segments the writer swapped for spares because readers were sending from them. */
    public long segmentsSwappedForReaders() {
        return pins.swaps();
    }

    /** Segments readers hold pins on now. */
    public int segmentsPinned() {
        return pins.pinned();
    }

    /** Calls {@code listener} on the writer thread after every append, until removed. */
    public void addListener(AppendListener listener) {
        listeners.add(listener);
    }

    /** Stops calling {@code listener}; returns false if it was not registered. */
    public boolean removeListener(AppendListener listener) {
        return listeners.remove(listener);
    }

    /** Listeners registered now: the relay's parked long-poll requests, among others. */
    public int listenerCount() {
        return listeners.size();
    }

    /** The SCN of the oldest entry held, or {@link #NULL_SCN} if none was appended. */
    public long oldestScn() {
        return oldestScn;
    }

    /** The SCN of the newest entry, or {@link #NULL_SCN}: reads above it get nothing yet. */
    public long newestScn() {
        return newestScn;
    }

    /**
     * The highest SCN evicted, or {@link #NULL_SCN}: checkpoints below it are too old to be served.
     */
    public long highestEvictedScn() {
        return highestEvictedScn;
    }

    /** Bytes of log between the oldest and the newest entry, padding at segment ends included. */
    public long bytesUsed() {
        long head = headPosition;
        return tailPosition - head;
    }

    /** Total bytes of the log. */
    public long capacity() {
        return config.capacityBytes();
    }

    /** The longest entry {@link #append} and {@link #appendPart} accept: one segment. */
    public int maxTransactionBytes() {
        return segmentBytes;
    }

    /** Entries (transactions and heartbeats) appended since construction. */
    public long transactionsAppended() {
        return transactionsAppended;
    }

    /** Entries (transactions and heartbeats) evicted since construction. */
    public long transactionsEvicted() {
        return transactionsEvicted;
    }

    /** Segments evicted since construction. */
    public long segmentsEvicted() {
        return segmentsEvicted;
    }

    /** Heap bytes of the sparse SCN index, fixed at construction. */
    public long indexHeapBytes() {
        return index.heapBytes();
    }

    /** The configuration this buffer was built with. */
    public EventBufferConfig config() {
        return config;
    }

    /**
     * Closes the buffer: later appends and reads fail with {@link IllegalStateException}. The
     * segments are not freed here but dropped, and go with their buffers' cleaners once reads in
     * flight finish and the garbage collector runs: freeing or unmapping memory a reader may still
     * be copying from would crash the JVM. Idempotent.
     */
    @Override
    public void close() {
        segments = null;
    }

    /** True once {@link #close()} was called. */
    public boolean isClosed() {
        return segments == null;
    }

    @Override
    public String toString() {
        return "EventBuffer[capacity="
                + capacity()
                + ", segmentBytes="
                + segmentBytes
                + ", segments="
                + segmentCount
                + ", storage="
                + config.storage()
                + ", bytesUsed="
                + bytesUsed()
                + ", oldestScn="
                + oldestScn
                + ", newestScn="
                + newestScn
                + ", highestEvictedScn="
                + highestEvictedScn
                + "]";
    }

    // For readers, in this package.

    ByteBuffer[] openSegments() {
        ByteBuffer[] log = segments;
        if (log == null) {
            throw new IllegalStateException("event buffer closed: capacity=" + capacity());
        }
        return log;
    }

    long headPosition() {
        return headPosition;
    }

    long tailPosition() {
        return tailPosition;
    }

    int segmentBytes() {
        return segmentBytes;
    }

    int segmentShift() {
        return segmentShift;
    }

    int segmentCount() {
        return segmentCount;
    }

    ScnIndex index() {
        return index;
    }

    SegmentPins pins() {
        return pins;
    }

    int slotOf(long sequence) {
        return (int) (sequence % segmentCount);
    }
}
