package io.changegrid.relay.buffer;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * One reader's cursor over an {@link EventBuffer}: {@link #read} copies whole entries (transactions
 * and heartbeats) with SCNs above a checkpoint into the reader's own buffer.
 *
 * <p>{@code read} returns the number of entries copied, or one of {@link #NOTHING_YET}, {@link
 * #TOO_OLD} and {@link #DESTINATION_TOO_SMALL}; the getters then describe what happened. A reader
 * that asks again with the last SCN it got (its new checkpoint) continues where it stopped; any
 * other checkpoint is found through the sparse SCN index. In that steady state a read allocates
 * nothing and searches nothing.
 *
 * <p>Reads are optimistic: the entries are copied without any lock, then the buffer's head is read
 * again; if the writer evicted anything the read relied on meanwhile, the copy is discarded and the
 * read starts over, which then answers {@link #TOO_OLD} if the checkpoint fell out of the buffer.
 * So a read never blocks the writer and never returns bytes that were being overwritten.
 *
 * <p>A transaction published in parts ({@link FrameLayout#FLAG_CONTINUED}) is one entry per part,
 * all with its SCN. A read may stop after some of its parts: then {@link #lastScn()} stays at the
 * last whole entry copied (or the checkpoint), which is where the consumer checkpoints, and {@link
 * #partsHeld()} says how many parts of the next transaction the caller now holds; it reads on with
 * that checkpoint and {@code skipParts} set to that count, and gets the remaining parts.
 *
 * <p>Not thread-safe: one reader per thread (or per consumer connection handed between threads with
 * a happens-before edge). Readers are cheap; make one per consumer.
 */
public final class EventBufferReader {

    /** Nothing above the checkpoint yet: ask again when {@link AppendListener} says so. */
    public static final int NOTHING_YET = 0;

    /**
     * Entries above the checkpoint were evicted: the consumer cannot continue from this buffer.
     * {@link #oldestScn()} says what the buffer holds now.
     */
    public static final int TOO_OLD = -1;

    /**
     * The first entry above the checkpoint does not fit in the destination's remaining bytes:
     * {@link #requiredBytes()} says how many it needs, {@link #availableBytes()} how many a read
     * could copy at most. Nothing was copied. Reading into an empty destination asks what a read
     * would need without copying anything.
     */
    public static final int DESTINATION_TOO_SMALL = -2;

    /**
     * {@link #pin} could not pin: pins are off, or held on as many segments as allowed. Nothing
     * changed; {@link #read copy} instead.
     */
    public static final int NOT_PINNED = -3;

    /** Internal: no entry where one should start; torn by an eviction, or a bug. */
    private static final int UNREADABLE = Integer.MIN_VALUE;

    /** Internal: the transaction after the checkpoint ended before the parts to skip. */
    private static final int SKIPPED_TOO_MANY = Integer.MIN_VALUE + 1;

    /** From {@link #scanRun}: the first entry is a part of a transaction in parts. */
    private static final int IN_PARTS = Integer.MIN_VALUE + 2;

    private static final long NO_CURSOR = Long.MIN_VALUE;
    private static final int END_OF_TRANSACTION = Operation.END_OF_TRANSACTION.code();
    private static final int HEARTBEAT = Operation.HEARTBEAT.code();

    private final EventBuffer buffer;
    private final ScnIndex index;
    private final int segmentBytes;
    private final int segmentShift;
    private final EventFrame frame = new EventFrame();

    // Where the last read stopped: cursorPosition is the first entry above cursorScn.
    private long cursorScn = NO_CURSOR;
    private long cursorPosition;

    // What the last read found.
    private int bytesCopied;
    private long lastScn = EventBuffer.NULL_SCN;
    private int partsHeld;
    private int requiredBytes;
    private long availableBytes;
    private long oldestScn = EventBuffer.NULL_SCN;

    private long retries;

    // What the last pin holds.
    private SegmentPin pinned;
    private ByteBuffer pinnedEntries;

    // Scratch of one attempt, kept in fields so that an attempt allocates nothing.
    private long seekReliedOn;
    private long scanEnd;
    private int scanBytes;
    private long scanLastScn;
    private int scanParts;
    private long scanFirstAbove;
    private boolean endContinues;
    private int scanRequired;
    private long scanAvailable;
    private long unreadableAt;
    private long runPosition;

    EventBufferReader(EventBuffer buffer) {
        this.buffer = buffer;
        this.index = buffer.index();
        this.segmentBytes = buffer.segmentBytes();
        this.segmentShift = buffer.segmentShift();
    }

    /**
     * Copies whole entries with SCNs above {@code checkpointScn}, oldest first, into {@code
     * destination} from its position up to its limit, and advances its position past them. Copies
     * as many as fit, at least one if there is one and it fits.
     *
     * @param checkpointScn the SCN the consumer has: {@link EventBuffer#NULL_SCN} for "from the
     *     oldest", else the {@link #lastScn()} of its last read
     * @return the number of entries copied (see {@link #bytesCopied()}, {@link #lastScn()}), or
     *     {@link #NOTHING_YET}, {@link #TOO_OLD}, {@link #DESTINATION_TOO_SMALL}
     * @throws IllegalStateException if the buffer is closed
     */
    public int read(long checkpointScn, ByteBuffer destination) {
        return read(checkpointScn, 0, destination);
    }

    /**
     * As {@link #read(long, ByteBuffer)}, after leaving out the first {@code skipParts} parts of
     * the transaction that follows the checkpoint: those the caller holds from an earlier read
     * ({@link #partsHeld()}). The count includes them.
     *
     * @throws IllegalArgumentException if that transaction has fewer unfinished parts than {@code
     *     skipParts}
     */
    public int read(long checkpointScn, int skipParts, ByteBuffer destination) {
        if (skipParts < 0) {
            throw new IllegalArgumentException("negative parts to skip: skipParts=" + skipParts);
        }
        if (checkpointScn < EventBuffer.NULL_SCN) {
            throw new IllegalArgumentException(
                    "checkpoint SCN below NULL_SCN: checkpointScn=" + checkpointScn);
        }
        ByteBuffer[] log = buffer.openSegments();
        bytesCopied = 0;
        lastScn = checkpointScn;
        partsHeld = 0;
        requiredBytes = 0;
        availableBytes = 0;
        oldestScn = EventBuffer.NULL_SCN;
        if (checkpointScn >= buffer.newestScn()) {
            return NOTHING_YET;
        }
        int base = destination.position();
        int room = destination.remaining();
        while (true) {
            long head = buffer.headPosition();
            // Read after the head: the writer stores the evicted SCN before it moves the head.
            if (buffer.highestEvictedScn() > checkpointScn) {
                // Read after the evicted SCN, which the writer stores after the oldest SCN.
                oldestScn = buffer.oldestScn();
                return TOO_OLD;
            }
            long tail = buffer.tailPosition();
            long start;
            long reliedOn;
            if (checkpointScn == cursorScn) {
                // Anything evicted between the cursor and the head was at most the evicted SCN,
                // so at most the checkpoint: nothing is skipped by starting at the head.
                start = Math.max(cursorPosition, head);
                reliedOn = start;
            } else {
                start = seek(checkpointScn, head, tail);
                reliedOn = seekReliedOn;
            }
            int result = scan(log, checkpointScn, skipParts, start, tail, destination, base, room);
            // Every read of the log above must complete before the head is read again.
            VarHandle.acquireFence();
            if (buffer.headPosition() > reliedOn) {
                retries++;
                continue;
            }
            if (result == SKIPPED_TOO_MANY) {
                throw new IllegalArgumentException(
                        "fewer unfinished parts after the checkpoint than asked to skip:"
                                + " checkpointScn="
                                + checkpointScn
                                + ", skipParts="
                                + skipParts);
            }
            if (result == UNREADABLE) {
                throw new IllegalStateException(
                        "event buffer holds no entry where one should start: position="
                                + unreadableAt
                                + ", checkpointScn="
                                + checkpointScn
                                + ", head="
                                + head
                                + ", tail="
                                + tail);
            }
            return finish(result, checkpointScn, destination, base);
        }
    }

    /**
     * Pins whole entries with SCNs above {@code checkpointScn} in the buffer's memory, for sending
     * in place, instead of copying them: as many as are back to back in the first one's segment, up
     * to {@code maxBytes} in all, at least one. The writer will not overwrite them until the pin is
     * {@linkplain SegmentPin#release released} ({@link SegmentPins}); release it exactly once,
     * after the bytes were sent.
     *
     * @return the number of entries pinned (see {@link #pinned()}, {@link #pinnedEntries()}, {@link
     *     #lastScn()}), or {@link #NOTHING_YET}, {@link #TOO_OLD}, {@link #NOT_PINNED}
     * @throws IllegalStateException if the buffer is closed
     */
    public int pin(long checkpointScn, int maxBytes) {
        if (checkpointScn < EventBuffer.NULL_SCN) {
            throw new IllegalArgumentException(
                    "checkpoint SCN below NULL_SCN: checkpointScn=" + checkpointScn);
        }
        ByteBuffer[] log = buffer.openSegments();
        bytesCopied = 0;
        lastScn = checkpointScn;
        oldestScn = EventBuffer.NULL_SCN;
        pinned = null;
        pinnedEntries = null;
        if (checkpointScn >= buffer.newestScn()) {
            return NOTHING_YET;
        }
        while (true) {
            long head = buffer.headPosition();
            if (buffer.highestEvictedScn() > checkpointScn) {
                oldestScn = buffer.oldestScn();
                return TOO_OLD;
            }
            long tail = buffer.tailPosition();
            long start;
            long reliedOn;
            if (checkpointScn == cursorScn) {
                start = Math.max(cursorPosition, head);
                reliedOn = start;
            } else {
                start = seek(checkpointScn, head, tail);
                reliedOn = seekReliedOn;
            }
            int result = scanRun(log, checkpointScn, start, tail, maxBytes);
            VarHandle.acquireFence();
            if (buffer.headPosition() > reliedOn) {
                retries++;
                continue;
            }
            if (result == UNREADABLE) {
                throw new IllegalStateException(
                        "event buffer holds no entry where one should start: position="
                                + unreadableAt
                                + ", checkpointScn="
                                + checkpointScn
                                + ", head="
                                + head
                                + ", tail="
                                + tail);
            }
            if (result == IN_PARTS) {
                return NOT_PINNED;
            }
            if (result == 0) {
                cursorScn = checkpointScn;
                cursorPosition = scanEnd;
                return NOTHING_YET;
            }
            int slot = buffer.slotOf(runPosition >>> segmentShift);
            SegmentPin pin = buffer.pins().pin(slot);
            // Counted before the head is read again: see SegmentPins for the writer's side.
            VarHandle.fullFence();
            if (buffer.headPosition() > reliedOn) {
                if (pin != null) {
                    pin.release();
                }
                retries++;
                continue;
            }
            if (pin == null) {
                return NOT_PINNED;
            }
            int offset = (int) (runPosition & (segmentBytes - 1));
            pinned = pin;
            pinnedEntries =
                    pin.memory.asReadOnlyBuffer().limit(offset + scanBytes).position(offset);
            bytesCopied = scanBytes;
            lastScn = scanLastScn;
            cursorScn = scanLastScn;
            cursorPosition = scanEnd;
            return result;
        }
    }

    /**
     * Walks entries from {@code start} as {@link #scan} does, without copying: finds the first
     * above the checkpoint ({@link #runPosition}) and the entries after it in the same segment, up
     * to {@code maxBytes} in all (at least one). Returns their number or {@link #UNREADABLE}.
     */
    private int scanRun(ByteBuffer[] log, long checkpointScn, long start, long tail, int maxBytes) {
        long position = start;
        int count = 0;
        int runOffset = 0;
        int runEnd = 0;
        long last = EventBuffer.NULL_SCN;
        while (position < tail && count == 0) {
            long sequence = position >>> segmentShift;
            long segmentStart = sequence << segmentShift;
            ByteBuffer segment = log[buffer.slotOf(sequence)];
            int limit = (int) Math.min(segmentBytes, tail - segmentStart);
            int offset = (int) (position - segmentStart);
            while (offset < limit) {
                if (EventBufferLayout.isEndOfSegment(segment, offset, segmentBytes)) {
                    offset = segmentBytes;
                    break;
                }
                int end = entryEnd(segment, offset, limit);
                long scn = end < 0 ? 0 : segment.getLong(offset + FrameLayout.SCN_OFFSET);
                if (end < 0 || (scn <= checkpointScn && count > 0)) {
                    unreadableAt = segmentStart + offset;
                    return UNREADABLE;
                }
                if (scn > checkpointScn) {
                    if (endContinues) {
                        // A transaction in parts goes by the copying path, which keeps the
                        // checkpoint before it until its last part and counts the parts held.
                        if (count == 0) {
                            return IN_PARTS;
                        }
                        break;
                    }
                    if (count > 0 && end - runOffset > maxBytes) {
                        break;
                    }
                    if (count == 0) {
                        runOffset = offset;
                        runPosition = segmentStart + offset;
                    }
                    runEnd = end;
                    count++;
                    last = scn;
                }
                offset = end;
            }
            position = count > 0 ? segmentStart + runEnd : segmentStart + offset;
        }
        scanEnd = position;
        scanBytes = runEnd - runOffset;
        scanLastScn = last;
        return count;
    }

    /** After a successful {@link #pin}: the pin to release once the entries were sent. */
    public SegmentPin pinned() {
        return pinned;
    }

    /**
     * After a successful {@link #pin}: the pinned entries, a read-only view of the buffer's memory
     * from position to limit ({@link #bytesCopied()} bytes). Valid until the pin is released.
     */
    public ByteBuffer pinnedEntries() {
        return pinnedEntries;
    }

    private int finish(int result, long checkpointScn, ByteBuffer destination, int base) {
        if (result > 0) {
            destination.position(base + scanBytes);
            bytesCopied = scanBytes;
            lastScn = scanLastScn;
            partsHeld = scanParts;
            cursorScn = scanLastScn;
            // With parts held, the first entry above the last whole one is the first part.
            cursorPosition = scanParts > 0 ? scanFirstAbove : scanEnd;
        } else {
            if (result == DESTINATION_TOO_SMALL) {
                requiredBytes = scanRequired;
                availableBytes = scanAvailable;
            }
            cursorScn = checkpointScn;
            cursorPosition = scanFirstAbove >= 0 ? scanFirstAbove : scanEnd;
        }
        return result == 0 ? NOTHING_YET : result;
    }

    /**
     * Where to start scanning for the first entry above {@code checkpointScn}: the last segment
     * whose first SCN is at most the checkpoint (binary search), then its last index entry at most
     * the checkpoint. Sets {@link #seekReliedOn} to the lowest position whose index data was read.
     */
    private long seek(long checkpointScn, long head, long tail) {
        if (tail == head) {
            seekReliedOn = head;
            return head;
        }
        long low = head >>> segmentShift;
        long high = (tail - 1) >>> segmentShift;
        long found = low;
        long lowestRead = high;
        while (low <= high) {
            long mid = (low + high) >>> 1;
            lowestRead = Math.min(lowestRead, mid);
            if (index.firstScn(buffer.slotOf(mid)) <= checkpointScn) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        int offset = index.floorOffset(buffer.slotOf(found), checkpointScn);
        seekReliedOn = Math.min(lowestRead, found) << segmentShift;
        return (found << segmentShift) + offset;
    }

    /**
     * Walks entries from {@code start} to {@code tail}, skipping those at or below the checkpoint
     * and copying the rest, one run per segment, while they fit. Returns the number copied, {@link
     * #DESTINATION_TOO_SMALL} or {@link #UNREADABLE}; the caller validates before trusting any.
     */
    private int scan(
            ByteBuffer[] log,
            long checkpointScn,
            int skipParts,
            long start,
            long tail,
            ByteBuffer destination,
            int base,
            int room) {
        long position = start;
        int copied = 0;
        int count = 0;
        long last = checkpointScn;
        int toSkip = skipParts;
        // Parts of the unfinished transaction at the end of what was copied (or skipped).
        int held = 0;
        long firstAbove = -1;
        long heldStart = -1;
        boolean full = false;
        while (position < tail && !full) {
            long sequence = position >>> segmentShift;
            long segmentStart = sequence << segmentShift;
            ByteBuffer segment = log[buffer.slotOf(sequence)];
            int limit = (int) Math.min(segmentBytes, tail - segmentStart);
            int offset = (int) (position - segmentStart);
            int runStart = -1;
            int runEnd = -1;
            while (offset < limit) {
                if (EventBufferLayout.isEndOfSegment(segment, offset, segmentBytes)) {
                    offset = segmentBytes;
                    break;
                }
                int end = entryEnd(segment, offset, limit);
                long scn = end < 0 ? 0 : segment.getLong(offset + FrameLayout.SCN_OFFSET);
                if (end < 0 || (scn <= checkpointScn && count > 0)) {
                    unreadableAt = segmentStart + offset;
                    return UNREADABLE;
                }
                if (scn <= checkpointScn) {
                    offset = end;
                    continue;
                }
                if (firstAbove < 0) {
                    firstAbove = segmentStart + offset;
                }
                if (toSkip > 0) {
                    if (!endContinues) {
                        scanFirstAbove = firstAbove;
                        return SKIPPED_TOO_MANY;
                    }
                    toSkip--;
                    held++;
                    offset = end;
                    continue;
                }
                int length = end - offset;
                int pending = runStart < 0 ? 0 : runEnd - runStart;
                if (copied + pending + length > room) {
                    if (count == 0) {
                        scanRequired = length;
                        scanAvailable = tail - (segmentStart + offset);
                        scanEnd = segmentStart + offset;
                        scanFirstAbove = firstAbove;
                        return DESTINATION_TOO_SMALL;
                    }
                    full = true;
                    break;
                }
                if (runStart < 0) {
                    runStart = offset;
                }
                runEnd = end;
                count++;
                if (endContinues) {
                    if (held == 0) {
                        heldStart = segmentStart + offset;
                    }
                    held++;
                } else {
                    held = 0;
                    last = scn;
                }
                offset = end;
            }
            if (runStart >= 0) {
                destination.put(base + copied, segment, runStart, runEnd - runStart);
                copied += runEnd - runStart;
            }
            position = segmentStart + offset;
        }
        scanEnd = position;
        scanBytes = copied;
        scanLastScn = last;
        scanParts = held;
        // Parts skipped and not followed by a whole entry start where the first entry above was.
        scanFirstAbove = held > 0 && last == checkpointScn ? firstAbove : heldStart;
        if (toSkip > 0 && count == 0) {
            scanFirstAbove = firstAbove;
            return toSkip == skipParts ? 0 : SKIPPED_TOO_MANY;
        }
        return count;
    }

    /**
     * The end offset of the entry at {@code offset}: after its END_OF_TRANSACTION or its lone
     * HEARTBEAT frame; -1 if the frames do not make an entry inside {@code limit}.
     */
    private int entryEnd(ByteBuffer segment, int offset, int limit) {
        int at = offset;
        while (true) {
            if (limit - at < FrameLayout.HEADER_LENGTH) {
                return -1;
            }
            frame.wrap(segment, at);
            int length = frame.length();
            if (length < FrameLayout.HEADER_LENGTH || length > limit - at) {
                return -1;
            }
            int op = frame.operationCode();
            at += length;
            if (op == END_OF_TRANSACTION || op == HEARTBEAT) {
                endContinues = op == END_OF_TRANSACTION && frame.continues();
                return at;
            }
        }
    }

    /**
     * After a read that copied entries: the parts of the transaction after {@link #lastScn()} the
     * caller now holds (skipped as asked, and copied), or 0 if the read ended with a whole entry.
     */
    public int partsHeld() {
        return partsHeld;
    }

    /** Bytes the last read copied. */
    public int bytesCopied() {
        return bytesCopied;
    }

    /**
     * The SCN of the last whole entry the last read copied: the consumer's checkpoint once it has
     * processed them. The checkpoint asked with if nothing whole was copied (only parts).
     */
    public long lastScn() {
        return lastScn;
    }

    /** After {@link #DESTINATION_TOO_SMALL}: the length of the entry that did not fit. */
    public int requiredBytes() {
        return requiredBytes;
    }

    /**
     * After {@link #DESTINATION_TOO_SMALL}: the bytes of log from the first entry above the
     * checkpoint to the newest, padding at segment ends included: the most a read could copy then.
     */
    public long availableBytes() {
        return availableBytes;
    }

    /** After {@link #TOO_OLD}: the oldest SCN the buffer holds. */
    public long oldestScn() {
        return oldestScn;
    }

    /**
     * Attempts discarded since this reader was made because the writer evicted what they were
     * copying: a measure of readers racing the writer at the head of the log.
     */
    public long retries() {
        return retries;
    }
}
