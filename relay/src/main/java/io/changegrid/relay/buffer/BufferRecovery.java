package io.changegrid.relay.buffer;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.CorruptFrameException;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Rebuilds an {@link EventBuffer} from the {@link SegmentFiles} a relay left behind, so that a
 * restarted relay serves what it held at once and reads the source only from after its last entry.
 *
 * <p>A segment is recovered only if all of this holds: its start record and a tail record of the
 * same lap are intact; every frame from its start to the tail record's end offset passes its CRC,
 * carries the buffer's source id and lies in a whole entry as {@link EntryShape} defines them (a
 * transaction ending with END_OF_TRANSACTION, or a lone HEARTBEAT); the SCNs rise from the start
 * record's floor SCN as {@link EventBuffer#append} demands; and the last entry is the tail
 * record's, ending where it says. What lies after the tail record's entry (a torn tail: an entry
 * half-written at the kill, or whole but not yet committed by its tail record) is dropped and read
 * from the source again.
 *
 * <p>The recovered log is the longest run of consecutive recovered segments ending with the newest
 * one that has committed entries, each segment's floor SCN being its predecessor's last SCN. The
 * relay's position file must agree with it: its last published SCN is the run's last SCN, or the
 * one before (a kill between the tail record and the position file), and segments below its replay
 * floor are left out (they were evicted). Anything else (files of an older state directory, a
 * machine crash that lost pages) recovers nothing: the relay then re-reads from its replay point,
 * as a relay without persistent segments does.
 *
 * <p>A transaction published in parts may span segments: a segment that starts with a later part
 * has the transaction's own SCN as its floor and must follow one that ends with a part. The run
 * never starts inside such a transaction (segments holding only its later parts are left out, as if
 * evicted) and never ends inside one: a kill while the last part's records were written leaves the
 * files recovering nothing, and the relay reads the transaction again.
 *
 * <p>Runs on the starting thread, before the buffer's first append.
 */
public final class BufferRecovery {

    private static final int END_OF_TRANSACTION = Operation.END_OF_TRANSACTION.code();
    private static final int HEARTBEAT = Operation.HEARTBEAT.code();

    /** What recovery made of the files. */
    public sealed interface Result permits Recovered, NotRecovered {}

    /**
     * The buffer holds what the files held.
     *
     * @param lastScn the SCN of the last entry recovered
     * @param resumePosition the source position right after it: where the fetcher goes on
     * @param segments the recovered segments, oldest first
     * @param entries entries recovered
     * @param bytes bytes of log recovered
     * @param droppedBytes bytes after the last committed entry that were dropped (a torn tail)
     */
    public record Recovered(
            long lastScn,
            String resumePosition,
            List<SegmentStart> segments,
            long entries,
            long bytes,
            long droppedBytes)
            implements Result {}

    /** Nothing was recovered, and why; the buffer is empty. */
    public record NotRecovered(String reason) implements Result {}

    /**
     * Where one recovered segment starts on the source.
     *
     * @param firstScn the SCN of its first entry
     * @param floorScn the SCN of the entry before it
     * @param floorPosition the source position just before its first entry
     */
    public record SegmentStart(long firstScn, long floorScn, String floorPosition) {}

    /**
     * What the relay's position file says about the buffer it last wrote.
     *
     * @param lastScn the SCN last published
     * @param replayFloorScn the SCN just before the oldest segment still held
     */
    public record Saved(long lastScn, long replayFloorScn) {}

    private record Segment(
            long sequence,
            SegmentFiles.Start start,
            SegmentFiles.Tail tail,
            long firstScn,
            long previousScn,
            long entries,
            int droppedBytes,
            boolean startsInPart,
            boolean endsInPart) {}

    private final SegmentFiles files;
    private final int sourceId;
    private final EntryShape shape = new EntryShape();
    private final EventFrame frame = new EventFrame();
    private final CRC32C crc = new CRC32C();

    private BufferRecovery(SegmentFiles files, int sourceId) {
        this.files = files;
        this.sourceId = sourceId;
    }

    /**
     * Recovers {@code buffer}, built on {@code files}, from what the files hold. On anything but
     * {@link Recovered} the files' records are forgotten, so that nothing of the old content is
     * recovered with the new.
     *
     * @param saved what the position file says, or null if it holds nothing
     */
    public static Result recover(
            SegmentFiles files, EventBuffer buffer, int sourceId, Saved saved) {
        Result result = new BufferRecovery(files, sourceId).recover(buffer, saved);
        if (result instanceof NotRecovered) {
            files.forgetRecords();
        }
        return result;
    }

    private Result recover(EventBuffer buffer, Saved saved) {
        if (files.discarded() != null) {
            return new NotRecovered(files.discarded());
        }
        if (saved == null) {
            return new NotRecovered(
                    "the position file holds no published position (a new state.directory?)");
        }
        List<Segment> run = run();
        if (run.isEmpty()) {
            return new NotRecovered("no segment holds a committed entry");
        }
        Segment newest = run.get(run.size() - 1);
        if (newest.endsInPart()) {
            return new NotRecovered(
                    "the newest segment ends inside a transaction in parts whose last part is not"
                            + " committed: scn="
                            + newest.tail().lastScn());
        }
        while (!run.isEmpty() && run.get(0).startsInPart()) {
            run.remove(0); // the transaction's first parts were evicted: serve none of it
        }
        if (run.isEmpty()) {
            return new NotRecovered("no segment starts outside a transaction in parts");
        }
        if (saved.lastScn() != newest.tail().lastScn() && saved.lastScn() != newest.previousScn()) {
            return new NotRecovered(
                    "the buffer files and the position file disagree: bufferLastScn="
                            + newest.tail().lastScn()
                            + ", positionFileLastScn="
                            + saved.lastScn()
                            + " (files of another state, or pages lost in a machine crash)");
        }
        while (!run.isEmpty() && run.get(0).start().floorScn() < saved.replayFloorScn()) {
            run.remove(0); // evicted before the kill, though its file was not overwritten yet
        }
        if (run.isEmpty()) {
            return new NotRecovered(
                    "no segment lies above the replay floor: replayFloorScn="
                            + saved.replayFloorScn());
        }
        int shift = Integer.numberOfTrailingZeros(buffer.segmentBytes());
        Segment oldest = run.get(0);
        buffer.restore(
                oldest.sequence(),
                (newest.sequence() << shift) + newest.tail().endOffset(),
                oldest.start().floorScn());
        List<SegmentStart> starts = new ArrayList<>();
        long entries = 0;
        long bytes = 0;
        for (Segment segment : run) {
            starts.add(
                    new SegmentStart(
                            segment.firstScn(),
                            segment.start().floorScn(),
                            segment.start().floorPosition()));
            entries += segment.entries();
            bytes += segment.tail().endOffset();
        }
        return new Recovered(
                newest.tail().lastScn(),
                newest.tail().position(),
                List.copyOf(starts),
                entries,
                bytes,
                newest.droppedBytes());
    }

    /** The longest run of linked, recovered segments ending with the newest committed one. */
    private List<Segment> run() {
        int count = files.segmentCount();
        Segment[] bySlot = new Segment[count];
        long newestSequence = -1;
        for (int slot = 0; slot < count; slot++) {
            bySlot[slot] = check(slot);
            if (bySlot[slot] != null) {
                newestSequence = Math.max(newestSequence, bySlot[slot].sequence());
            }
        }
        List<Segment> run = new ArrayList<>();
        for (long sequence = newestSequence; sequence >= 0 && run.size() < count; sequence--) {
            Segment segment = bySlot[(int) (sequence % count)];
            if (segment == null || segment.sequence() != sequence) {
                break;
            }
            if (!run.isEmpty()
                    && (run.get(run.size() - 1).start().floorScn() != segment.tail().lastScn()
                            || run.get(run.size() - 1).startsInPart() != segment.endsInPart())) {
                break; // not the predecessor of the newer segment
            }
            if (!run.isEmpty() && !sealed(segment)) {
                break;
            }
            run.add(segment);
        }
        Collections.reverse(run);
        return run;
    }

    /** Whether readers walking {@code segment} stop at its tail record's end. */
    private boolean sealed(Segment segment) {
        int slot = (int) (segment.sequence() % files.segmentCount());
        ByteBuffer data = files.segment(slot);
        int bytes = data.capacity();
        return segment.tail().endOffset() == bytes
                || EventBufferLayout.isEndOfSegment(data, segment.tail().endOffset(), bytes);
    }

    /** The segment in {@code slot} if its content up to its tail record is whole, else null. */
    private Segment check(int slot) {
        SegmentFiles.Start start = files.start(slot);
        if (start == null
                || start.sequence() < 0
                || start.sequence() % files.segmentCount() != slot) {
            return null;
        }
        SegmentFiles.Tail tail = files.tail(slot, start.sequence());
        ByteBuffer data = files.segment(slot);
        if (tail == null || tail.endOffset() <= 0 || tail.endOffset() > data.capacity()) {
            return null;
        }
        int offset = 0;
        long last = start.floorScn();
        long previous = last;
        long first = EventBuffer.NULL_SCN;
        long entries = 0;
        boolean startsInPart = false;
        boolean inPart = false;
        try {
            while (offset < tail.endOffset()) {
                int end = entryEnd(data, offset, tail.endOffset());
                long scn = data.getLong(offset + FrameLayout.SCN_OFFSET);
                int kind = shape.kind(scn, data, offset, end - offset);
                boolean heartbeat = kind == EntryShape.HEARTBEAT_ENTRY;
                if (entries == 0 && !heartbeat && scn == last) {
                    startsInPart = true; // continues the previous segment's last part
                    inPart = true;
                }
                if (inPart ? heartbeat || scn != last : heartbeat ? scn < last : scn <= last) {
                    return null;
                }
                inPart = kind == EntryShape.PART;
                if (first == EventBuffer.NULL_SCN) {
                    first = scn;
                }
                previous = last;
                last = scn;
                entries++;
                offset = end;
            }
        } catch (CorruptFrameException | IllegalArgumentException e) {
            return null;
        }
        if (offset != tail.endOffset() || last != tail.lastScn() || entries == 0) {
            return null;
        }
        return new Segment(
                start.sequence(),
                start,
                tail,
                first,
                previous,
                entries,
                droppedBytes(data, offset),
                startsInPart,
                inPart);
    }

    /**
     * The end of the entry at {@code offset}: after its END_OF_TRANSACTION or its lone HEARTBEAT,
     * every frame checked whole (bounds, CRC, header) and of this buffer's source.
     *
     * @throws CorruptFrameException if a frame is damaged, torn, or of another source
     */
    private int entryEnd(ByteBuffer data, int offset, int limit) {
        int at = offset;
        while (true) {
            int length = FrameLayout.checkFrame(data, at, limit, crc);
            frame.wrap(data, at);
            if (frame.sourceId() != sourceId) {
                throw new CorruptFrameException(
                        "frame of another source: offset=" + at + ", sourceId=" + frame.sourceId());
            }
            int op = frame.operationCode();
            at += length;
            if (op == END_OF_TRANSACTION || op == HEARTBEAT) {
                return at;
            }
        }
    }

    /** Bytes of whole-looking frames after the last committed entry, for the log line. */
    private int droppedBytes(ByteBuffer data, int from) {
        int at = from;
        try {
            while (at < data.capacity()) {
                at += FrameLayout.checkFrame(data, at, data.capacity(), crc);
            }
        } catch (CorruptFrameException e) {
            // The first frame that is not whole ends what the kill left behind.
        }
        return at - from;
    }
}
