package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.relay.buffer.SampleTransactions.Entry;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Entries pinned in the buffer's memory and sent in place, and the writer that never waits. */
class EventBufferPinTest {

    private static final int SEGMENT = 4096;

    private final SampleTransactions samples = new SampleTransactions(21);

    private static EventBuffer buffer(int spareSegments) {
        EventBuffer buffer = new EventBuffer(EventBufferConfig.direct(3L * SEGMENT, SEGMENT));
        buffer.allowPins(spareSegments);
        return buffer;
    }

    private void fillSegment(EventBuffer buffer, long scn) {
        assertThat(buffer.append(scn, samples.transactionOfLength(scn, SEGMENT), 0, SEGMENT))
                .isPositive();
    }

    private static ByteBuffer copyOf(ByteBuffer view) {
        ByteBuffer copy = ByteBuffer.allocate(view.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        copy.put(view.duplicate()).flip();
        return copy;
    }

    @Test
    void shouldKeepPinnedBytesWholeWhenTheWriterEvictsTheirSegment() {
        EventBuffer buffer = buffer(1);
        samples.append(buffer, 1, 3, 200);
        EventBufferReader reader = buffer.newReader();

        assertThat(reader.pin(NULL_SCN, 1 << 20)).isEqualTo(1);
        ByteBuffer view = reader.pinnedEntries();
        ByteBuffer before = copyOf(view);
        // Segments 1, 2 and 3: entering 3 evicts segment 0, whose bytes are being "sent".
        for (long scn = 2; scn <= 4; scn++) {
            fillSegment(buffer, scn);
        }

        assertThat(buffer.segmentsEvicted()).isEqualTo(1);
        assertThat(buffer.segmentsSwappedForReaders()).isEqualTo(1);
        assertThat(copyOf(view)).as("pinned bytes after eviction").isEqualTo(before);
        assertThat(SampleTransactions.entries(view, view.position(), view.limit()))
                .extracting(Entry::scn)
                .containsExactly(1L);
        reader.pinned().release();

        // The swapped-in memory holds the new segment; unpinned, the slot is written in place.
        EventBufferReader later = buffer.newReader();
        ByteBuffer destination = ByteBuffer.allocate(SEGMENT);
        assertThat(later.read(3, destination)).isEqualTo(1);
        assertThat(SampleTransactions.entries(destination, 0, destination.position()))
                .extracting(Entry::scn)
                .containsExactly(4L);
        fillSegment(buffer, 5);
        assertThat(buffer.segmentsEvicted()).isEqualTo(2);
        assertThat(buffer.segmentsSwappedForReaders()).isEqualTo(1);
    }

    @Test
    void shouldPinTheEntriesOfOneSegmentUpToMaxBytesWhenMoreFollow() {
        EventBuffer buffer = buffer(1);
        for (long scn = 1; scn <= 3; scn++) {
            samples.append(buffer, scn, 2, 300);
        }
        fillSegment(buffer, 4); // does not fit after them: the next segment
        EventBufferReader reader = buffer.newReader();

        assertThat(reader.pin(NULL_SCN, 1024)).as("at least one, even above maxBytes").isEqualTo(1);
        int first = reader.bytesCopied();
        assertThat(first).isGreaterThan(600);
        reader.pinned().release();
        assertThat(reader.pin(NULL_SCN, 2 * first + 100)).isEqualTo(2);
        reader.pinned().release();
        assertThat(reader.pin(NULL_SCN, 1 << 20)).as("one segment at most").isEqualTo(3);
        assertThat(reader.lastScn()).isEqualTo(3);
        reader.pinned().release();
        assertThat(reader.pin(3, 1 << 20)).isEqualTo(1);
        assertThat(reader.bytesCopied()).isEqualTo(SEGMENT);
        reader.pinned().release();
        assertThat(reader.pin(4, 1 << 20)).isEqualTo(EventBufferReader.NOTHING_YET);
    }

    @Test
    void shouldLeaveATransactionInPartsToTheCopyingPathWhenAPinReachesIt() {
        EventBuffer buffer = new EventBuffer(EventBufferConfig.direct(8L * SEGMENT, SEGMENT));
        buffer.allowPins(1);
        samples.append(buffer, 10, 1, 100);
        // Small parts, in the same segment as SCN 10: a run of entries would take them in.
        samples.appendInParts(buffer, 20, 3, 4, 100);
        EventBufferReader reader = buffer.newReader();

        assertThat(reader.pin(NULL_SCN, 1 << 20)).as("the whole transaction only").isEqualTo(1);
        assertThat(reader.lastScn()).isEqualTo(10);
        reader.pinned().release();
        assertThat(reader.pin(10, 1 << 20)).isEqualTo(EventBufferReader.NOT_PINNED);
        buffer.close();
    }

    @Test
    void shouldRefuseToPinWhenPinsAreOffOrHeldOnAsManySegmentsAsAllowed() {
        EventBuffer off = buffer(0);
        samples.append(off, 1, 1, 10);
        assertThat(off.newReader().pin(NULL_SCN, 1 << 20)).isEqualTo(EventBufferReader.NOT_PINNED);

        EventBuffer buffer = buffer(1);
        samples.append(buffer, 1, 1, 10);
        fillSegment(buffer, 2);
        EventBufferReader first = buffer.newReader();
        EventBufferReader second = buffer.newReader();
        EventBufferReader other = buffer.newReader();

        assertThat(first.pin(NULL_SCN, 1 << 20)).isEqualTo(1);
        assertThat(second.pin(NULL_SCN, 1 << 20)).as("the same segment, shared").isEqualTo(1);
        assertThat(other.pin(1, 1 << 20))
                .as("a second segment")
                .isEqualTo(EventBufferReader.NOT_PINNED);
        first.pinned().release();
        assertThat(other.pin(1, 1 << 20)).isEqualTo(EventBufferReader.NOT_PINNED);
        second.pinned().release();
        assertThat(other.pin(1, 1 << 20)).isEqualTo(1);
        assertThat(other.lastScn()).isEqualTo(2);
        other.pinned().release();
    }
}
