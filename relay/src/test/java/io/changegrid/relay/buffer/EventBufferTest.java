package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static io.changegrid.relay.buffer.EventBufferReader.DESTINATION_TOO_SMALL;
import static io.changegrid.relay.buffer.EventBufferReader.NOTHING_YET;
import static io.changegrid.relay.buffer.EventBufferReader.TOO_OLD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.changegrid.relay.buffer.SampleTransactions.Entry;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventBufferTest {

    private static final int SEGMENT = 4096;

    private final SampleTransactions samples = new SampleTransactions(1);
    private final EventBuffer buffer =
            new EventBuffer(
                    EventBufferConfig.direct(4 * SEGMENT, SEGMENT).withIndexStrideBytes(256));
    private final EventBufferReader reader = buffer.newReader();
    private final ByteBuffer destination =
            ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);

    @AfterEach
    void close() {
        buffer.close();
    }

    @Test
    void shouldAnswerNothingYetWhenEmpty() {
        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(NOTHING_YET);
        assertThat(destination.position()).isZero();
        assertThat(buffer.oldestScn()).isEqualTo(NULL_SCN);
        assertThat(buffer.newestScn()).isEqualTo(NULL_SCN);
    }

    @Test
    void shouldCopyWholeTransactionsAboveCheckpointWhenAppended() {
        int first = samples.append(buffer, 10, 3, 200);
        int second = samples.append(buffer, 20, 1, 200);
        int third = samples.appendHeartbeat(buffer, 25);

        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(3);

        assertThat(reader.bytesCopied()).isEqualTo(first + second + third);
        assertThat(destination.position()).isEqualTo(first + second + third);
        assertThat(reader.lastScn()).isEqualTo(25);
        assertThat(SampleTransactions.entries(destination, 0, destination.position()))
                .containsExactly(
                        new Entry(10, false, 3, first),
                        new Entry(20, false, 1, second),
                        new Entry(25, true, 0, third));
    }

    @Test
    void shouldAnswerNothingYetWhenCheckpointIsNewestOrBeyond() {
        samples.append(buffer, 10, 1, 100);

        assertThat(reader.read(10, destination)).isEqualTo(NOTHING_YET);
        assertThat(reader.read(11, destination)).isEqualTo(NOTHING_YET);
        assertThat(reader.lastScn()).isEqualTo(11);
        assertThat(destination.position()).isZero();
    }

    @Test
    void shouldContinueWhereItStoppedWhenAskedWithLastScn() {
        samples.append(buffer, 10, 1, 100);
        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(1);
        assertThat(reader.read(reader.lastScn(), destination)).isEqualTo(NOTHING_YET);

        samples.append(buffer, 20, 2, 100);
        samples.append(buffer, 30, 1, 100);
        int from = destination.position();

        assertThat(reader.read(10, destination)).isEqualTo(2);
        assertThat(SampleTransactions.entries(destination, from, destination.position()))
                .extracting(Entry::scn)
                .containsExactly(20L, 30L);
    }

    @Test
    void shouldStopAtWholeTransactionWhenDestinationFillsUp() {
        int first = samples.append(buffer, 10, 2, 300);
        int second = samples.append(buffer, 20, 2, 300);
        samples.append(buffer, 30, 2, 300);
        destination.limit(first + second + second / 2);

        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(2);

        assertThat(destination.position()).isEqualTo(first + second);
        assertThat(reader.lastScn()).isEqualTo(20);
        destination.limit(destination.capacity());
        assertThat(reader.read(20, destination)).isEqualTo(1);
        assertThat(reader.lastScn()).isEqualTo(30);
    }

    @Test
    void shouldAnswerDestinationTooSmallWhenFirstTransactionDoesNotFit() {
        int length = samples.append(buffer, 10, 3, 500);
        destination.limit(length - 1);

        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(DESTINATION_TOO_SMALL);

        assertThat(reader.requiredBytes()).isEqualTo(length);
        assertThat(destination.position()).isZero();
        ByteBuffer larger = ByteBuffer.allocate(reader.requiredBytes());
        assertThat(reader.read(NULL_SCN, larger)).isEqualTo(1);
        assertThat(larger.hasRemaining()).isFalse();
    }

    @Test
    void shouldSayWhatAReadNeedsWithoutCopyingWhenTheDestinationIsEmpty() {
        int first = samples.append(buffer, 10, 3, 500);
        int second = samples.append(buffer, 20, 1, 100);
        ByteBuffer empty = ByteBuffer.allocate(0);

        assertThat(reader.read(NULL_SCN, empty)).isEqualTo(DESTINATION_TOO_SMALL);

        assertThat(reader.requiredBytes()).isEqualTo(first);
        assertThat(reader.availableBytes()).isEqualTo(first + second);
        assertThat(reader.read(10, empty)).isEqualTo(DESTINATION_TOO_SMALL);
        assertThat(reader.availableBytes()).isEqualTo(second);
        ByteBuffer exact = ByteBuffer.allocate(first + second);
        assertThat(reader.read(NULL_SCN, exact)).isEqualTo(2);
        assertThat(exact.hasRemaining()).isFalse();
    }

    @Test
    void shouldRefuseTransactionLargerThanSegment() {
        ByteBuffer frames = samples.transaction(10, 3, 2000);
        assertThat(samples.length()).isGreaterThan(SEGMENT);

        assertThat(buffer.append(10, frames, 0, samples.length()))
                .isEqualTo(EventBuffer.TRANSACTION_TOO_LARGE);

        assertThat(buffer.maxTransactionBytes()).isEqualTo(SEGMENT);
        assertThat(buffer.transactionsAppended()).isZero();
        assertThat(buffer.newestScn()).isEqualTo(NULL_SCN);
        samples.append(buffer, 10, 1, 100);
    }

    @Test
    void shouldHoldTransactionExactlyFillingSegment() {
        samples.append(buffer, 10, 1, 100);
        ByteBuffer whole = samples.transactionOfLength(20, SEGMENT);
        assertThat(buffer.append(20, whole, 0, SEGMENT)).isEqualTo(2L * SEGMENT);
        samples.append(buffer, 30, 1, 100);

        assertThat(reader.read(10, destination)).isEqualTo(2);

        List<Entry> entries = SampleTransactions.entries(destination, 0, destination.position());
        assertThat(entries).extracting(Entry::scn).containsExactly(20L, 30L);
        assertThat(entries.get(0).length()).isEqualTo(SEGMENT);
    }

    @Test
    void shouldMoveToNextSegmentWhenTransactionDoesNotFitTheRest() {
        int first = samples.append(buffer, 10, 2, 1000);
        ByteBuffer frames = samples.transaction(20, 2, 1000);
        int second = samples.length();
        assertThat(first + second).isGreaterThan(SEGMENT);

        long tail = buffer.append(20, frames, 0, second);

        assertThat(tail).isEqualTo(SEGMENT + second);
        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(2);
        assertThat(destination.position()).isEqualTo(first + second);
        assertThat(SampleTransactions.entries(destination, 0, destination.position()))
                .extracting(Entry::scn)
                .containsExactly(10L, 20L);
    }

    @Test
    void shouldEvictOldestWholeSegmentWhenFull() {
        // Two transactions per segment; the fifth segment reuses the first one's slot.
        long scn = 0;
        for (int i = 0; i < 8; i++) {
            samples.append(buffer, scn += 10, 1, 1500);
        }
        assertThat(buffer.segmentsEvicted()).isZero();
        assertThat(buffer.oldestScn()).isEqualTo(10);

        samples.append(buffer, 90, 1, 1500);

        assertThat(buffer.segmentsEvicted()).isEqualTo(1);
        assertThat(buffer.transactionsEvicted()).isEqualTo(2);
        assertThat(buffer.highestEvictedScn()).isEqualTo(20);
        assertThat(buffer.oldestScn()).isEqualTo(30);
        assertThat(reader.read(20, destination)).isEqualTo(7);
        assertThat(SampleTransactions.entries(destination, 0, destination.position()))
                .extracting(Entry::scn)
                .containsExactly(30L, 40L, 50L, 60L, 70L, 80L, 90L);
    }

    @Test
    void shouldAnswerTooOldWithOldestScnWhenEntriesAfterCheckpointWereEvicted() {
        long scn = 0;
        for (int i = 0; i < 12; i++) {
            samples.append(buffer, scn += 10, 1, 1500);
        }
        assertThat(buffer.highestEvictedScn()).isEqualTo(40);

        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(TOO_OLD);
        assertThat(reader.oldestScn()).isEqualTo(50);
        assertThat(reader.read(39, destination)).isEqualTo(TOO_OLD);
        assertThat(reader.oldestScn()).isEqualTo(50);
        assertThat(destination.position()).isZero();

        assertThat(reader.read(40, destination)).isEqualTo(8);
        assertThat(SampleTransactions.entries(destination, 0, destination.position()).get(0).scn())
                .isEqualTo(50);
    }

    @Test
    void shouldAnswerTooOldWhenCursorFellBehindEviction() {
        samples.append(buffer, 10, 1, 1500);
        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(1);
        long scn = 10;
        for (int i = 0; i < 12; i++) {
            samples.append(buffer, scn += 10, 1, 1500);
        }

        assertThat(reader.read(10, destination)).isEqualTo(TOO_OLD);
        assertThat(reader.oldestScn()).isEqualTo(buffer.oldestScn());
    }

    @Test
    void shouldRejectDecreasingScnAsMisuse() {
        samples.append(buffer, 10, 1, 100);
        ByteBuffer same = samples.transaction(10, 1, 100);

        assertThatThrownBy(() -> buffer.append(10, same, 0, samples.length()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("transaction SCN not above the last appended SCN: scn=10, lastScn=10");
        ByteBuffer older = samples.heartbeat(9);
        assertThatThrownBy(() -> buffer.append(9, older, 0, samples.length()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("heartbeat SCN below the last appended SCN: scn=9, lastScn=10");
        assertThat(buffer.transactionsAppended()).isEqualTo(1);
    }

    @Test
    void shouldAcceptRepeatedHeartbeatButNoTransactionAtItsScn() {
        samples.append(buffer, 10, 1, 100);
        samples.appendHeartbeat(buffer, 10);
        samples.appendHeartbeat(buffer, 15);
        samples.appendHeartbeat(buffer, 15);
        ByteBuffer atHeartbeat = samples.transaction(15, 1, 100);

        assertThatThrownBy(() -> buffer.append(15, atHeartbeat, 0, samples.length()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scn=15, lastScn=15");

        assertThat(reader.read(NULL_SCN, destination)).isEqualTo(4);
        assertThat(reader.read(10, destination.clear())).isEqualTo(2);
        assertThat(SampleTransactions.entries(destination, 0, destination.position()))
                .extracting(Entry::scn, Entry::heartbeat)
                .containsExactly(tuple(15L, true), tuple(15L, true));
        assertThat(reader.read(15, destination.clear())).isEqualTo(NOTHING_YET);
    }

    @Test
    void shouldRejectBytesThatAreNotOneWholeEntry() {
        ByteBuffer frames = samples.transaction(10, 2, 100);
        int length = samples.length();

        assertThatThrownBy(() -> buffer.append(10, frames, 0, length - 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not one whole transaction or heartbeat");
        assertThatThrownBy(() -> buffer.append(11, frames, 0, length))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("frame SCN differs from the entry's: scn=11, frameScn=10");
        int firstFrame = frames.getInt(0);
        assertThatThrownBy(() -> buffer.append(10, frames, 0, firstFrame))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not one whole transaction or heartbeat, truncated");
        assertThatThrownBy(() -> buffer.append(10, frames, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> buffer.append(10, frames, -1, length))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buffer.transactionsAppended()).isZero();
    }

    @Test
    void shouldTellListenersNewestScnAfterEachAppend() {
        List<Long> heard = new CopyOnWriteArrayList<>();
        List<Long> visibleWhenHeard = new CopyOnWriteArrayList<>();
        AppendListener listener =
                scn -> {
                    heard.add(scn);
                    visibleWhenHeard.add(buffer.newestScn());
                };
        buffer.addListener(listener);

        samples.append(buffer, 10, 1, 100);
        samples.appendHeartbeat(buffer, 12);
        assertThat(buffer.removeListener(listener)).isTrue();
        samples.append(buffer, 20, 1, 100);

        assertThat(heard).containsExactly(10L, 12L);
        assertThat(visibleWhenHeard).containsExactly(10L, 12L);
        assertThat(buffer.removeListener(listener)).isFalse();
    }

    @Test
    void shouldDropListenerThatThrowsWhenAppending() {
        List<Long> heard = new CopyOnWriteArrayList<>();
        buffer.addListener(
                scn -> {
                    throw new IllegalStateException("broken waiter");
                });
        buffer.addListener(heard::add);

        samples.append(buffer, 10, 1, 100);
        samples.append(buffer, 20, 1, 100);

        assertThat(heard).containsExactly(10L, 20L);
        assertThat(buffer.transactionsAppended()).isEqualTo(2);
    }

    @Test
    void shouldReportStatusWhenAppendingAndEvicting() {
        assertThat(buffer.capacity()).isEqualTo(4 * SEGMENT);
        assertThat(buffer.bytesUsed()).isZero();
        assertThat(buffer.indexHeapBytes()).isEqualTo(4 * 16 * 12 + 4 * 4 * 2);
        int length = samples.append(buffer, 10, 1, 1500);
        samples.appendHeartbeat(buffer, 11);

        assertThat(buffer.bytesUsed()).isEqualTo(length + 64);
        assertThat(buffer.transactionsAppended()).isEqualTo(2);
        assertThat(buffer.oldestScn()).isEqualTo(10);
        assertThat(buffer.newestScn()).isEqualTo(11);
        assertThat(buffer.highestEvictedScn()).isEqualTo(NULL_SCN);
        assertThat(buffer.toString()).contains("newestScn=11", "capacity=16384");
    }

    @Test
    void shouldFailAppendsAndReadsWhenClosed() {
        samples.append(buffer, 10, 1, 100);
        buffer.close();
        buffer.close();

        assertThat(buffer.isClosed()).isTrue();
        assertThatThrownBy(() -> reader.read(NULL_SCN, destination))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("event buffer closed: capacity=16384");
        ByteBuffer frames = samples.transaction(20, 1, 100);
        assertThatThrownBy(() -> buffer.append(20, frames, 0, samples.length()))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(buffer::newReader).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldRejectCheckpointBelowNullScn() {
        assertThatThrownBy(() -> reader.read(-2, destination))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("checkpoint SCN below NULL_SCN: checkpointScn=-2");
    }
}
