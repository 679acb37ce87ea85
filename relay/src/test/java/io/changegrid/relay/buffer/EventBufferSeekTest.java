package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static io.changegrid.relay.buffer.EventBufferReader.NOTHING_YET;
import static io.changegrid.relay.buffer.EventBufferReader.TOO_OLD;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.relay.buffer.SampleTransactions.Entry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Finding where to start for a checkpoint: the sparse SCN index, then a scan of frames. */
class EventBufferSeekTest {

    private static final int SEGMENT = 4096;
    private static final int STRIDE = 256;

    private final SampleTransactions samples = new SampleTransactions(2);

    @Test
    void shouldStartAtFirstEntryAboveCheckpointInMiddleAtEdgesAndBetweenTransactions() {
        EventBuffer buffer = newBuffer(8);
        for (long scn = 10; scn <= 200; scn += 10) {
            samples.append(buffer, scn, 1, 150);
        }

        assertThat(firstScnRead(buffer, NULL_SCN)).isEqualTo(10);
        assertThat(firstScnRead(buffer, 5)).as("below the oldest, nothing evicted").isEqualTo(10);
        assertThat(firstScnRead(buffer, 10)).isEqualTo(20);
        assertThat(firstScnRead(buffer, 15)).as("between transactions").isEqualTo(20);
        assertThat(firstScnRead(buffer, 100)).as("in the middle").isEqualTo(110);
        assertThat(firstScnRead(buffer, 101)).isEqualTo(110);
        assertThat(firstScnRead(buffer, 199)).as("just below the newest").isEqualTo(200);
        assertThat(buffer.newReader().read(200, ByteBuffer.allocate(SEGMENT)))
                .isEqualTo(NOTHING_YET);
        buffer.close();
    }

    @Test
    void shouldKeepIndexSparseWhenSegmentHoldsManyTransactions() {
        EventBuffer buffer = newBuffer(2);
        for (long scn = 1; scn <= 40; scn++) {
            samples.append(buffer, scn, 1, 0);
        }

        int entries = buffer.index().count(0);
        assertThat(entries).isBetween(2, SEGMENT / STRIDE);
        assertThat(entries).isLessThan((int) buffer.transactionsAppended());
        for (long checkpoint = NULL_SCN; checkpoint < 40; checkpoint++) {
            assertThat(firstScnRead(buffer, checkpoint)).isEqualTo(Math.max(1, checkpoint + 1));
        }
        buffer.close();
    }

    /**
     * Every checkpoint from below the evicted SCNs to past the newest, each with a fresh reader so
     * that every read seeks: too old below the highest evicted SCN, nothing yet from the newest on,
     * else the first entry above the checkpoint and the ones after it.
     */
    @Test
    void shouldFindFirstEntryAboveEveryCheckpointWhenLogHasWrapped() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("EventBufferSeekTest seed=" + seed);
        Random random = new Random(seed);
        EventBuffer buffer = newBuffer(8);
        List<Long> appended = new ArrayList<>();
        long scn = 100;
        while (buffer.segmentsEvicted() < 20) {
            if (random.nextInt(8) == 0) {
                scn += random.nextInt(2) == 0 ? 0 : random.nextInt(4);
                samples.appendHeartbeat(buffer, scn);
            } else {
                scn += 1 + random.nextInt(30);
                samples.append(buffer, scn, 1 + random.nextInt(4), random.nextInt(300));
            }
            appended.add(scn);
        }
        long evicted = buffer.highestEvictedScn();
        long newest = buffer.newestScn();
        ByteBuffer destination = ByteBuffer.allocate(buffer.maxTransactionBytes());

        for (long checkpoint = evicted - 50; checkpoint <= newest + 2; checkpoint++) {
            EventBufferReader reader = buffer.newReader();
            int result = reader.read(checkpoint, destination.clear());
            if (checkpoint < evicted) {
                assertThat(result)
                        .as("seed=%d, checkpoint=%d", seed, checkpoint)
                        .isEqualTo(TOO_OLD);
                assertThat(reader.oldestScn()).isEqualTo(buffer.oldestScn());
            } else if (checkpoint >= newest) {
                assertThat(result)
                        .as("seed=%d, checkpoint=%d", seed, checkpoint)
                        .isEqualTo(NOTHING_YET);
            } else {
                assertThat(result).as("seed=%d, checkpoint=%d", seed, checkpoint).isPositive();
                List<Long> read =
                        SampleTransactions.entries(destination, 0, destination.position()).stream()
                                .map(Entry::scn)
                                .toList();
                int first = firstAbove(appended, checkpoint);
                assertThat(read)
                        .as("seed=%d, checkpoint=%d", seed, checkpoint)
                        .isEqualTo(appended.subList(first, first + read.size()));
            }
        }
        buffer.close();
    }

    private EventBuffer newBuffer(int segments) {
        return new EventBuffer(
                EventBufferConfig.direct((long) segments * SEGMENT, SEGMENT)
                        .withIndexStrideBytes(STRIDE));
    }

    private static long firstScnRead(EventBuffer buffer, long checkpoint) {
        ByteBuffer destination = ByteBuffer.allocate(SEGMENT);
        int result = buffer.newReader().read(checkpoint, destination);
        assertThat(result).as("checkpoint=%d", checkpoint).isPositive();
        return SampleTransactions.entries(destination, 0, destination.position()).get(0).scn();
    }

    private static int firstAbove(List<Long> scns, long scn) {
        int at = 0;
        while (scns.get(at) <= scn) {
            at++;
        }
        return at;
    }
}
