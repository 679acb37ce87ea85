package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.frame.FrameLayout;
import io.changegrid.relay.buffer.SampleTransactions.Entry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The log wrapping around its segments many times, and log positions beyond 32 bits. */
class EventBufferWrapTest {

    @Test
    void shouldKeepEveryEntryWholeWhenWrappingManyTimes() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("EventBufferWrapTest seed=" + seed);
        Random random = new Random(seed);
        SampleTransactions samples = new SampleTransactions(seed);
        int segment = 4096;
        // Three segments: the slot of a segment is a remainder, not a mask.
        EventBuffer buffer = new EventBuffer(EventBufferConfig.direct(3L * segment, segment));
        EventBufferReader reader = buffer.newReader();
        ByteBuffer destination = ByteBuffer.allocate(3 * segment);
        long scn = 0;
        long checkpoint = NULL_SCN;
        long expectedNext = 1;
        int read = 0;
        int unread = 0;

        for (int i = 0; i < 20_000; i++) {
            scn++;
            if (random.nextInt(20) == 0) {
                ByteBuffer whole = samples.transactionOfLength(scn, segment);
                assertThat(buffer.append(scn, whole, 0, segment)).isPositive();
            } else {
                samples.append(buffer, scn, 1 + random.nextInt(6), random.nextInt(400));
            }
            unread++;
            // Three appends reach at most two segments past the first unread entry's: with three
            // segments, nothing unread is evicted, so every read must succeed.
            if (unread == 3 || random.nextInt(3) == 0) {
                unread = 0;
                int result = reader.read(checkpoint, destination.clear());
                assertThat(result).as("seed=%d, scn=%d", seed, scn).isPositive();
                List<Entry> entries =
                        SampleTransactions.entries(destination, 0, destination.position());
                for (Entry entry : entries) {
                    assertThat(entry.scn()).as("seed=%d", seed).isEqualTo(expectedNext++);
                }
                read += entries.size();
                checkpoint = reader.lastScn();
            }
        }

        assertThat(buffer.segmentsEvicted()).isGreaterThan(1000);
        assertThat(read).isPositive();
        buffer.close();
    }

    @Test
    void shouldServeReadersWhenLogPositionsPassFourGibibytes() {
        int segment = 1 << 20;
        EventBuffer buffer = new EventBuffer(EventBufferConfig.direct(3L * segment, segment));
        EventBufferReader reader = buffer.newReader();
        ByteBuffer destination = ByteBuffer.allocate(segment);
        SampleTransactions samples = new SampleTransactions(3);
        ByteBuffer frames = samples.transaction(1, 4, 60_000);
        int length = samples.length();
        long end = (1L << 32) + 10L * segment;
        long checkpoint = NULL_SCN;
        long position = 0;
        long scn = 0;

        while (position < end) {
            scn++;
            withScn(frames, length, scn);
            position = buffer.append(scn, frames, 0, length);
            if (scn % 3 == 0) {
                int result = reader.read(checkpoint, destination.clear());
                assertThat(result).as("scn=%d, position=%d", scn, position).isEqualTo(3);
                List<Entry> entries =
                        SampleTransactions.entries(destination, 0, destination.position());
                assertThat(entries).extracting(Entry::scn).containsExactly(scn - 2, scn - 1, scn);
                checkpoint = reader.lastScn();
            }
        }

        assertThat(position).isGreaterThan(1L << 32);
        assertThat(buffer.bytesUsed()).isBetween(2L * segment - length, 3L * segment);
        assertThat(buffer.newReader().read(scn - 2, destination.clear())).isEqualTo(2);
        buffer.close();
    }

    /** Rewrites the SCN of every frame of a transaction, and their checksums. */
    private static void withScn(ByteBuffer frames, int length, long scn) {
        CRC32C crc = new CRC32C();
        int at = 0;
        while (at < length) {
            int frameLength = frames.getInt(at + FrameLayout.LENGTH_OFFSET);
            frames.putLong(at + FrameLayout.SCN_OFFSET, scn);
            crc.reset();
            crc.update(
                    frames.array(),
                    frames.arrayOffset() + at + FrameLayout.CHECKSUMMED_FROM,
                    frameLength - FrameLayout.CHECKSUMMED_FROM);
            frames.putInt(at + FrameLayout.CRC_OFFSET, (int) crc.getValue());
            at += frameLength;
        }
    }
}
