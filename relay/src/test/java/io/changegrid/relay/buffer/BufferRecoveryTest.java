package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.relay.publish.Publisher;
import io.changegrid.relay.state.PositionStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A persistent buffer written through the real {@link Publisher} and {@link PositionStore}, then
 * reopened as a restarted relay reopens it. Closing the files only forces them: the content a
 * reopen finds is what a {@code kill -9} would leave, since the page cache outlives the process.
 */
class BufferRecoveryTest {

    private static final int SEGMENT_BYTES = 64 * 1024;
    private static final int SEGMENTS = 4;
    private static final BufferIdentity IDENTITY =
            BufferIdentity.of(SampleTransactions.SOURCE_ID, "source=test\npolicies=none");

    @TempDir Path directory;
    @TempDir Path state;

    private final SampleTransactions samples = new SampleTransactions(20);

    @Test
    void shouldServeWhatItHeldAndGoOnAfterItWhenReopened() {
        List<SampleTransactions.Entry> before;
        long evictedBefore;
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.result).isInstanceOf(BufferRecovery.NotRecovered.class);
            for (long scn = 10; scn <= 3000; scn += 10) {
                relay.publish(scn, 1 + (int) (scn % 3));
            }
            assertThat(relay.buffer.segmentsEvicted()).as("the log wrapped").isPositive();
            before = relay.readAll();
            evictedBefore = relay.buffer.highestEvictedScn();
        }

        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            BufferRecovery.Recovered recovered = relay.recovered();
            assertThat(recovered.lastScn()).isEqualTo(3000);
            assertThat(recovered.resumePosition()).isEqualTo("after-3000");
            assertThat(relay.readAll()).isEqualTo(before);
            assertThat(relay.buffer.highestEvictedScn()).isEqualTo(evictedBefore);
            assertThat(relay.buffer.oldestScn()).isEqualTo(before.get(0).scn());
            // The writer goes on where the log ended, evicting recovered segments as it wraps.
            for (long scn = 3010; scn <= 6000; scn += 10) {
                relay.publish(scn, 2);
            }
            before = relay.readAll();
        }

        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.recovered().lastScn()).isEqualTo(6000);
            assertThat(relay.readAll()).isEqualTo(before);
            assertThat(relay.buffer.highestEvictedScn())
                    .isEqualTo(relay.positions.load().orElseThrow().replayFloorScn());
        }
    }

    @Test
    void shouldEvictOnlyWhatItHoldsWhenTheRecoveredLogIsShorterThanTheBuffer() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            for (long scn = 10; scn <= 300; scn += 10) {
                relay.publish(scn, 2);
            }
            assertThat(relay.buffer.segmentsEvicted()).isZero();
        }
        List<SampleTransactions.Entry> held;
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.readAll()).hasSize(30);
            long oldest = relay.buffer.oldestScn();
            // Fills the slots the recovered log left empty first: nothing recovered is evicted.
            long scn = 310;
            while (relay.buffer.segmentsEvicted() == 0) {
                assertThat(relay.buffer.oldestScn()).isEqualTo(oldest);
                relay.publish(scn, 2);
                scn += 10;
            }
            for (int i = 0; i < 200; i++, scn += 10) {
                relay.publish(scn, 2);
            }
            held = relay.readAll();
            assertThat(held.get(held.size() - 1).scn()).isEqualTo(scn - 10);
        }
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.readAll()).isEqualTo(held);
        }
    }

    @Test
    void shouldDropATornTailWhenTheLastEntryWasHalfWritten() throws IOException {
        long tail;
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            for (long scn = 10; scn <= 200; scn += 10) {
                relay.publish(scn, 2);
            }
            tail = relay.buffer.tailPosition();
        }
        // What a kill in the middle of copying the next transaction leaves: its first half.
        ByteBuffer next = samples.transaction(210, 3, 400);
        int half = samples.length() / 2;
        writeIntoSegment(tail, next, half);

        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            BufferRecovery.Recovered recovered = relay.recovered();
            assertThat(recovered.lastScn()).isEqualTo(200);
            assertThat(recovered.resumePosition()).isEqualTo("after-200");
            List<SampleTransactions.Entry> entries = relay.readAll();
            assertThat(entries).hasSize(20);
            assertThat(entries.get(entries.size() - 1).scn()).isEqualTo(200);
            // Read again from the source, the transaction goes where the torn one was.
            relay.publish(210, 3);
            assertThat(relay.readAll()).hasSize(21);
        }
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.recovered().lastScn()).isEqualTo(210);
            assertThat(relay.readAll()).hasSize(21);
        }
    }

    @Test
    void shouldDropAWholeEntryWhenItsSegmentRecordWasNotWritten() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            for (long scn = 10; scn <= 200; scn += 10) {
                relay.publish(scn, 2);
            }
            // The kill came after the entry's bytes, before its tail record.
            ByteBuffer frames = samples.transaction(210, 2, 300);
            assertThat(relay.buffer.appendEncoded(210, frames, 0, samples.length(), false))
                    .isPositive();
        }
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.recovered().lastScn()).isEqualTo(200);
            assertThat(relay.readAll()).hasSize(20);
        }
    }

    @Test
    void shouldKeepTheLastEntryWhenThePositionFileIsOneEntryBehind() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            for (long scn = 10; scn <= 100; scn += 10) {
                relay.publish(scn, 2);
            }
            // The kill came after the entry's tail record, before the position file's save.
            ByteBuffer frames = samples.transaction(110, 2, 300);
            long end = relay.buffer.appendEncoded(110, frames, 0, samples.length(), false);
            long sequence = (end - samples.length()) / SEGMENT_BYTES;
            assertThat(sequence).as("in the segment of the entries before").isZero();
            relay.files.appended(
                    sequence, 110, (int) (end - sequence * SEGMENT_BYTES), "after-110");
        }
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.positions.load().orElseThrow().lastScn()).isEqualTo(100);
            assertThat(relay.recovered().lastScn()).isEqualTo(110);
            assertThat(relay.recovered().resumePosition()).isEqualTo("after-110");
            assertThat(relay.readAll()).hasSize(11);
        }
    }

    @Test
    void shouldRecoverNothingWhenACommittedFrameIsDamaged() throws IOException {
        long tail;
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            for (long scn = 10; scn <= 400; scn += 10) {
                relay.publish(scn, 2);
            }
            tail = relay.buffer.tailPosition();
        }
        ByteBuffer flipped = ByteBuffer.allocate(1);
        readFromSegment(tail - 10, flipped);
        flipped.put(0, (byte) (flipped.get(0) ^ 0x40));
        writeIntoSegment(tail - 10, flipped, 1);

        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.result).isInstanceOf(BufferRecovery.NotRecovered.class);
            assertThat(relay.buffer.newestScn()).isEqualTo(NULL_SCN);
        }
    }

    @Test
    void shouldRecoverATransactionInPartsWhenItSpansSegments() {
        Map<Long, Integer> before;
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            for (long scn = 10; scn <= 100; scn += 10) {
                relay.publish(scn, 2);
            }
            // Seven parts of ~18 KiB: about two segments.
            relay.publishInParts(110, 7);
            relay.publish(120, 1);
            before = relay.eventsByScn();
        }
        assertThat(before).containsEntry(110L, 7 * 12).containsEntry(120L, 1);

        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.recovered().lastScn()).isEqualTo(120);
            assertThat(relay.eventsByScn()).isEqualTo(before);
        }
    }

    @Test
    void shouldRecoverUpToTheTransactionBeforeWhenItsLastPartWasNotPublished() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            relay.publish(10, 2);
            relay.publish(20, 2);
            // The kill comes before the last part: the parts are in the files, uncommitted.
            samples.inParts(
                    30,
                    4,
                    12,
                    1500,
                    (frames, length, last, events) -> {
                        if (!last) {
                            relay.publisher.acceptPart(30, frames, length);
                        }
                        return 1;
                    });
        }

        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.recovered().lastScn()).isEqualTo(20);
            assertThat(relay.eventsByScn()).containsOnlyKeys(10L, 20L);
            relay.publishInParts(30, 4);
            assertThat(relay.eventsByScn()).containsEntry(30L, 4 * 12);
        }
    }

    @Test
    void shouldRefuseFilesOfAnotherSource() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            relay.publish(10, 1);
        }
        BufferIdentity other = new BufferIdentity(8, IDENTITY.fingerprint());
        assertThatThrownBy(() -> SegmentFiles.open(directory, other, SEGMENTS, SEGMENT_BYTES))
                .isInstanceOf(RefusedBufferFilesException.class)
                .hasMessageContaining("belongs to another source")
                .hasMessageContaining("fileSourceId=" + SampleTransactions.SOURCE_ID)
                .hasMessageContaining("source.id=8");
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.recovered().lastScn()).as("the refused open left them").isEqualTo(10);
        }
    }

    @Test
    void shouldDiscardFilesWhenTheLayoutOrTheConfigurationChanged() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            relay.publish(10, 1);
        }
        try (Relay relay = new Relay(IDENTITY, SEGMENTS * 2)) {
            assertThat(relay.result)
                    .isEqualTo(new BufferRecovery.NotRecovered(relay.files.discarded()));
            assertThat(relay.files.discarded()).contains("buffer layout differs");
            relay.publish(20, 1);
        }
        BufferIdentity changed = BufferIdentity.of(IDENTITY.sourceId(), "policies=masked");
        try (Relay relay = new Relay(changed, SEGMENTS * 2)) {
            assertThat(relay.files.discarded()).contains("configuration differs");
            assertThat(relay.buffer.newestScn()).isEqualTo(NULL_SCN);
        }
    }

    @Test
    void shouldRefuseADirectoryAnotherRelayHolds() {
        try (Relay relay = new Relay(IDENTITY, SEGMENTS)) {
            assertThat(relay.files.directory()).isEqualTo(directory);
            assertThatThrownBy(
                            () -> SegmentFiles.open(directory, IDENTITY, SEGMENTS, SEGMENT_BYTES))
                    .isInstanceOf(RefusedBufferFilesException.class)
                    .hasMessageContaining("in use by another process");
        }
    }

    private void writeIntoSegment(long position, ByteBuffer bytes, int length) throws IOException {
        try (FileChannel file = segmentFile(position)) {
            file.write(bytes.duplicate().position(0).limit(length), fileOffset(position));
        }
    }

    private void readFromSegment(long position, ByteBuffer into) throws IOException {
        try (FileChannel file = segmentFile(position)) {
            file.read(into, fileOffset(position));
        }
    }

    private FileChannel segmentFile(long position) throws IOException {
        int slot = (int) ((position / SEGMENT_BYTES) % SEGMENTS);
        Path file = directory.resolve(String.format("changegrid-buffer-%05d.segment", slot));
        assertThat(file).exists();
        return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    private static long fileOffset(long position) {
        return SegmentFileLayout.HEADER_BYTES + position % SEGMENT_BYTES;
    }

    /** The parts of a relay that write and recover the buffer, started as {@code Relay} does. */
    private final class Relay implements AutoCloseable {
        final SegmentFiles files;
        final EventBuffer buffer;
        final PositionStore positions;
        final Publisher publisher;
        final BufferRecovery.Result result;

        Relay(BufferIdentity identity, int segments) {
            files = SegmentFiles.open(directory, identity, segments, SEGMENT_BYTES);
            buffer =
                    new EventBuffer(
                            EventBufferConfig.direct((long) segments * SEGMENT_BYTES, SEGMENT_BYTES)
                                    .withStorage(files));
            positions = new PositionStore(state);
            Optional<PositionStore.SavedPosition> saved = positions.load();
            result =
                    BufferRecovery.recover(
                            files,
                            buffer,
                            SampleTransactions.SOURCE_ID,
                            saved.map(
                                            s ->
                                                    new BufferRecovery.Saved(
                                                            s.lastScn(), s.replayFloorScn()))
                                    .orElse(null));
            publisher =
                    new Publisher(
                            buffer, positions, files, Long.MAX_VALUE, new SimpleMeterRegistry());
            if (result instanceof BufferRecovery.Recovered recovered) {
                publisher.resume(recovered);
            } else {
                long floor = saved.map(PositionStore.SavedPosition::lastScn).orElse(0L);
                buffer.startAfter(floor);
                publisher.start(floor, "after-" + floor);
            }
        }

        BufferRecovery.Recovered recovered() {
            assertThat(result).isInstanceOf(BufferRecovery.Recovered.class);
            return (BufferRecovery.Recovered) result;
        }

        void publish(long scn, int events) {
            ByteBuffer frames = samples.transaction(scn, events, 1500);
            publisher.accept(scn, frames, samples.length(), events, scn, "after-" + scn);
        }

        void publishInParts(long scn, int parts) {
            samples.inParts(
                    scn,
                    parts,
                    12,
                    1500,
                    (frames, length, last, events) -> {
                        if (last) {
                            publisher.accept(scn, frames, length, events, scn, "after-" + scn);
                        } else {
                            publisher.acceptPart(scn, frames, length);
                        }
                        return 1;
                    });
        }

        /** Row events per SCN, read part by part through a destination of one segment. */
        Map<Long, Integer> eventsByScn() {
            EventBufferReader reader = buffer.newReader();
            Map<Long, Integer> events = new TreeMap<>();
            long checkpoint = buffer.highestEvictedScn();
            int parts = 0;
            EventFrame frame = new EventFrame();
            while (true) {
                ByteBuffer destination =
                        ByteBuffer.allocate(SEGMENT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
                int read = reader.read(checkpoint, parts, destination);
                assertThat(read).isNotEqualTo(EventBufferReader.TOO_OLD);
                if (read <= 0) {
                    return events;
                }
                for (int at = 0; at < destination.position(); at += frame.length()) {
                    frame.wrap(destination, at);
                    if (frame.operation() == Operation.INSERT) {
                        events.merge(frame.scn(), 1, Integer::sum);
                    }
                }
                checkpoint = reader.lastScn();
                parts = reader.partsHeld();
            }
        }

        List<SampleTransactions.Entry> readAll() {
            EventBufferReader reader = buffer.newReader();
            ByteBuffer destination = ByteBuffer.allocate(SEGMENT_BYTES * segmentsHeld());
            List<SampleTransactions.Entry> entries = new ArrayList<>();
            long checkpoint = buffer.highestEvictedScn();
            while (true) {
                destination.clear();
                int read = reader.read(checkpoint, destination);
                assertThat(read).isNotEqualTo(EventBufferReader.TOO_OLD);
                if (read <= 0) {
                    return entries;
                }
                entries.addAll(SampleTransactions.entries(destination, 0, destination.position()));
                checkpoint = reader.lastScn();
            }
        }

        private int segmentsHeld() {
            return (int) (buffer.capacity() / SEGMENT_BYTES);
        }

        @Override
        public void close() {
            positions.close();
            buffer.close();
            files.close();
        }
    }
}
