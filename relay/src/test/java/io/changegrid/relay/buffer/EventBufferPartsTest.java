package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static io.changegrid.relay.buffer.EventBufferReader.NOTHING_YET;
import static io.changegrid.relay.buffer.EventBufferReader.TOO_OLD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Transactions published in parts: atomic, resumable part by part, evicted as one. */
class EventBufferPartsTest {

    private static final int SEGMENT = 4096;

    private final SampleTransactions samples = new SampleTransactions(3);
    private final EventBuffer buffer =
            new EventBuffer(
                    EventBufferConfig.direct(4 * SEGMENT, SEGMENT).withIndexStrideBytes(256));
    private final EventBufferReader reader = buffer.newReader();

    @AfterEach
    void close() {
        buffer.close();
    }

    @Test
    void shouldPublishEveryPartAtOnceWhenTheLastPartArrives() {
        samples.append(buffer, 10, 1, 100);
        ByteBuffer destination = destination(64 * 1024);

        // Three parts of ~3 KiB: each fills a segment of its own.
        long tail = samples.appendInParts(buffer, 20, 3, 12, 200);

        assertThat(tail).isPositive();
        assertThat(buffer.hasOpenParts()).isFalse();
        assertThat(buffer.newestScn()).isEqualTo(20);
        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(4);
        assertThat(reader.lastScn()).isEqualTo(20);
        assertThat(reader.partsHeld()).isZero();
        List<String> events = events(destination);
        assertThat(events).hasSize(1 + 36);
        assertThat(events.subList(1, 37))
                .allMatch(e -> e.startsWith("20#"))
                .extracting(e -> Integer.parseInt(e.substring(3)))
                .isSorted()
                .doesNotHaveDuplicates();
    }

    @Test
    void shouldHideWrittenPartsWhenTheLastPartHasNotCome() {
        samples.append(buffer, 10, 1, 100);

        // Parts of SCN 20 without their last part: a writer stopped in the middle.
        assertThat(appendOpenParts(buffer, 20, 2)).isPositive();

        assertThat(buffer.hasOpenParts()).isTrue();
        assertThat(buffer.newestScn()).isEqualTo(10);
        assertThat(reader.read(10, destination(64 * 1024))).isEqualTo(NOTHING_YET);
        assertThatThrownBy(() -> samples.appendHeartbeat(buffer, 21))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parts are open");
    }

    @Test
    void shouldHandThePartsOverOneByOneWhenTheDestinationHoldsOnePart() {
        samples.append(buffer, 10, 1, 100);
        samples.appendInParts(buffer, 20, 3, 12, 200);
        samples.append(buffer, 30, 1, 100);
        List<String> seen = new ArrayList<>();
        long checkpoint = 10;
        int parts = 0;
        List<Integer> held = new ArrayList<>();

        for (int reads = 0; reads < 10; reads++) {
            ByteBuffer destination = destination(3500);
            int result = reader.read(checkpoint, parts, destination);
            if (result == NOTHING_YET) {
                break;
            }
            assertThat(result).isPositive();
            seen.addAll(events(destination));
            checkpoint = reader.lastScn();
            parts = reader.partsHeld();
            held.add(parts);
        }

        assertThat(held).containsExactly(1, 2, 0, 0);
        assertThat(checkpoint).isEqualTo(30);
        assertThat(seen).hasSize(37).last().isEqualTo("30#0");
        assertThat(seen.subList(0, 36))
                .extracting(e -> Integer.parseInt(e.substring(3)))
                .containsExactlyElementsOf(range(36));
    }

    @Test
    void shouldStartAgainFromTheFirstPartWhenAskedWithoutParts() {
        samples.append(buffer, 10, 1, 100);
        samples.appendInParts(buffer, 20, 3, 12, 200);
        assertThat(reader.read(10, destination(3500))).isEqualTo(1);
        assertThat(reader.partsHeld()).isEqualTo(1);

        ByteBuffer again = destination(3500);
        assertThat(reader.read(10, 0, again)).isEqualTo(1);

        assertThat(events(again)).first().isEqualTo("20#0");
        assertThat(reader.partsHeld()).isEqualTo(1);
    }

    @Test
    void shouldRefuseToSkipPartsWhenTheTransactionHasNoMore() {
        samples.append(buffer, 10, 1, 100);
        samples.appendInParts(buffer, 20, 2, 12, 200);

        assertThatThrownBy(() -> reader.read(10, 2, destination(64 * 1024)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("skipParts=2");
    }

    @Test
    void shouldAnswerTooOldWhenTheFirstPartWasEvicted() {
        samples.append(buffer, 10, 1, 100);
        samples.appendInParts(buffer, 20, 3, 12, 200);
        // Two more segments' worth: the segments of the first parts go.
        samples.append(buffer, 30, 12, 200);
        samples.append(buffer, 40, 12, 200);

        assertThat(buffer.highestEvictedScn()).isEqualTo(20);
        assertThat(reader.read(10, destination(64 * 1024))).isEqualTo(TOO_OLD);
        ByteBuffer after = destination(64 * 1024);
        assertThat(reader.read(20, after)).isEqualTo(2);
        assertThat(events(after)).first().isEqualTo("30#0");
    }

    @Test
    void shouldRefuseATransactionLargerThanTheLogAndGoOnWhenAbandoned() {
        samples.append(buffer, 10, 1, 100);

        long result = samples.appendInParts(buffer, 20, 6, 12, 200);

        assertThat(result).isEqualTo(EventBuffer.LARGER_THAN_BUFFER);
        assertThat(buffer.hasOpenParts()).isTrue();
        buffer.abandonParts();
        samples.append(buffer, 30, 1, 100);
        ByteBuffer destination = destination(64 * 1024);
        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(2);
        assertThat(events(destination)).containsExactly("10#0", "30#0");
    }

    @Test
    void shouldRebuildThePartsWhenRestoredFromTheSegments() {
        samples.append(buffer, 10, 1, 100);
        samples.appendInParts(buffer, 20, 3, 12, 200);
        EventBuffer restored =
                new EventBuffer(
                        EventBufferConfig.direct(4 * SEGMENT, SEGMENT).withIndexStrideBytes(256));
        try {
            ByteBuffer[] from = buffer.openSegments();
            ByteBuffer[] to = restored.openSegments();
            for (int i = 0; i < from.length; i++) {
                to[i].put(0, from[i], 0, SEGMENT);
            }
            restored.restore(0, buffer.tailPosition(), 9);

            EventBufferReader again = restored.newReader();
            assertThat(again.read(10, 1, destination(64 * 1024))).isEqualTo(2);
            assertThat(again.lastScn()).isEqualTo(20);
            assertThat(restored.newestScn()).isEqualTo(20);
        } finally {
            restored.close();
        }
    }

    /** Appends {@code parts} parts of no events: each only a continued END_OF_TRANSACTION. */
    private static long appendOpenParts(EventBuffer target, long scn, int parts) {
        FrameEncoder encoder = new FrameEncoder(1024);
        long tail = 0;
        for (int part = 0; part < parts; part++) {
            encoder.buffer().clear();
            encoder.beginTransaction(SampleTransactions.SOURCE_ID, scn, scn * 10, "0-1-" + scn);
            encoder.endPart();
            encoder.abortTransaction(encoder.buffer().position());
            tail =
                    target.appendPart(
                            scn, encoder.buffer().byteBuffer(), 0, encoder.buffer().position());
        }
        return tail;
    }

    private static ByteBuffer destination(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static List<Integer> range(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /** The row events copied, as "scn#index", checked frame by frame; part ends left out. */
    private static List<String> events(ByteBuffer destination) {
        ByteBuffer bytes = destination.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        EventFrame frame = new EventFrame();
        List<String> out = new ArrayList<>();
        for (int at = 0; at < destination.position(); at += frame.length()) {
            FrameLayout.checkFrame(bytes, at, destination.position(), crc);
            frame.wrap(bytes, at);
            if (frame.operation() == Operation.INSERT) {
                out.add(frame.scn() + "#" + frame.index());
            }
        }
        return out;
    }
}
