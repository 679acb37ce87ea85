package io.changegrid.consumer.pull;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.SampleStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ResponseCheckTest {

    private final ResponseCheck check = new ResponseCheck();

    private boolean check(byte[] body, long from, long lastScn) {
        // At an offset inside a larger buffer, as in the consumer's ring.
        ByteBuffer buffer = ByteBuffer.allocate(body.length + 100).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(50, body);
        return check.check(
                buffer, 50, body.length, from, new StreamHeaders(lastScn, lastScn, 1, "none"));
    }

    @Test
    void shouldAcceptWholeTransactionsAndHeartbeatsWhenWellFormed() {
        byte[] body =
                new SampleStream()
                        .begin(100)
                        .insert(1, "ann", "1.00")
                        .update(1, "ann", "1.00", "2.00")
                        .commit()
                        .heartbeat(150)
                        .order(200, 2)
                        .take();

        assertThat(check(body, 99, 250)).as(check.problem()).isTrue();
        assertThat(check.transactions()).isEqualTo(2);
    }

    @Test
    void shouldAcceptASnapshotChunkWhenItClosesTheBodyAboveTheLiveTransactions() {
        byte[] live = new SampleStream().order(100, 1).take();
        byte[] chunk = chunk(300);
        byte[] body = concat(live, chunk);

        assertThat(check(body, 99, 100)).as(check.problem()).isTrue();
        assertThat(check.transactions()).isEqualTo(1);
    }

    @Test
    void shouldRejectLiveFramesWhenTheyFollowASnapshotChunk() {
        byte[] body = concat(chunk(300), new SampleStream().order(400, 1).take());

        assertThat(check(body, 99, 400)).isFalse();
        assertThat(check.problem()).startsWith("frames after a snapshot chunk");
    }

    @Test
    void shouldRejectASnapshotChunkWhenItIsNotAfterTheLiveTransactions() {
        byte[] body = concat(new SampleStream().order(300, 1).take(), chunk(200));

        assertThat(check(body, 99, 300)).isFalse();
        assertThat(check.problem()).startsWith("snapshot chunk not after the live transactions");
    }

    /** One order as a snapshot chunk at {@code scn}. */
    private static byte[] chunk(long scn) {
        byte[] chunk = new SampleStream().begin(scn).insert(7, "cy", "3.00").commit().take();
        new io.changegrid.events.frame.SnapshotFrames()
                .mark(
                        ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN),
                        0,
                        chunk.length,
                        io.changegrid.events.frame.FrameLayout.FLAG_SNAPSHOT);
        return chunk;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    @Test
    void shouldAcceptAnEmptyBodyWhenTheCheckpointMovesOrStays() {
        assertThat(check(new byte[0], 10, 10)).isTrue();
        assertThat(check(new byte[0], 10, 20)).isTrue();
        assertThat(check(new byte[0], 10, 9)).isFalse();
        assertThat(check.problem()).isEqualTo("last SCN header goes back: lastScn=9, from=10");
    }

    @Test
    void shouldNameTheOffsetWhenAFrameIsCorrupt() {
        byte[] body = new SampleStream().order(100, 1).order(200, 2).take();
        int secondTransaction = body.length / 2;
        body[secondTransaction + 70] ^= 1; // a byte of the second transaction's first frame

        assertThat(check(body, 0, 200)).isFalse();
        assertThat(check.problem())
                .startsWith(
                        "corrupt frame: offset=" + secondTransaction + ": frame checksum mismatch");
    }

    @Test
    void shouldRejectABodyThatEndsInsideATransaction() {
        byte[] whole = new SampleStream().order(100, 1).take();
        byte[] body = new SampleStream().begin(100).insert(1, "customer 1", "1.00").take();
        assertThat(body.length).isLessThan(whole.length);

        assertThat(check(body, 0, 100)).isFalse();
        assertThat(check.problem()).startsWith("response ends inside a transaction: offset=");
    }

    @Test
    void shouldRejectATruncatedFrame() {
        byte[] whole = new SampleStream().order(100, 1).take();

        assertThat(check(Arrays.copyOf(whole, whole.length - 3), 0, 100)).isFalse();
        assertThat(check.problem()).contains("truncated frame");
    }

    @Test
    void shouldRejectTransactionsAtOrBeforeTheCheckpoint() {
        byte[] body = new SampleStream().order(100, 1).take();

        assertThat(check(body, 100, 100)).isFalse();
        assertThat(check.problem())
                .isEqualTo("transaction SCN not after the previous one: offset=0, scn=100");
    }

    @Test
    void shouldRejectTransactionsThatGoBackInScn() {
        byte[] body = new SampleStream().order(200, 1).order(150, 2).take();

        assertThat(check(body, 0, 200)).isFalse();
        assertThat(check.problem()).startsWith("transaction SCN not after the previous one");
    }

    @Test
    void shouldRejectALastScnHeaderBeforeTheLastFrame() {
        byte[] body = new SampleStream().order(200, 1).take();

        assertThat(check(body, 0, 150)).isFalse();
        assertThat(check.problem())
                .isEqualTo("last SCN header before the last frame: lastScn=150, frameScn=200");
    }

    @Test
    void shouldRejectALastScnAboveTheNewestScnHeldWhenTheCheckpointMoves() {
        byte[] body = new SampleStream().order(100, 1).take();
        ByteBuffer buffer = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(check.check(buffer, 0, body.length, 0, new StreamHeaders(5000, 100, 1, "none")))
                .isFalse();
        assertThat(check.problem())
                .isEqualTo(
                        "last SCN header above the newest SCN the relay holds: lastScn=5000,"
                                + " newestScn=100");
        // A relay behind the consumer's checkpoint answers it unchanged: not a forgery.
        assertThat(check.check(buffer, 0, 0, 300, new StreamHeaders(300, 100, 1, "none"))).isTrue();
    }

    @Test
    void shouldRejectAFrameOfAnotherSourceWhenTheRelayNamesItsSource() {
        byte[] body = new SampleStream().order(100, 1).source(2).order(200, 2).take();
        ByteBuffer buffer = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(check.check(buffer, 0, body.length, 0, new StreamHeaders(200, 200, 1, "none")))
                .isFalse();
        assertThat(check.problem())
                .isEqualTo(
                        "frame of another source: offset="
                                + body.length / 2
                                + ", scn=200, frameSourceId=2, relaySourceId=1");
    }

    private boolean check(byte[] body, long from, int parts, long lastScn, int partsHeader) {
        ByteBuffer buffer = ByteBuffer.allocate(body.length + 100).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(50, body);
        return check.check(
                buffer,
                50,
                body.length,
                from,
                parts,
                new StreamHeaders(lastScn, 900, 1, "none", 0, "", null, partsHeader));
    }

    @Test
    void shouldAcceptATransactionInPartsWhenItsPartsComeAcrossAnswers() {
        SampleStream stream = new SampleStream();
        byte[] first = stream.order(100, 1).begin(200).insert(2, "b", "1.00").part().take();
        byte[] second = stream.insert(3, "c", "1.00").part().take();
        byte[] last = stream.insert(4, "d", "1.00").commit().order(300, 5).take();

        assertThat(check(first, 99, 0, 100, 1)).as(check.problem()).isTrue();
        assertThat(check.heldParts()).isEqualTo(1);
        assertThat(check(second, 100, 1, 100, 2)).as(check.problem()).isTrue();
        assertThat(check.heldParts()).isEqualTo(2);
        assertThat(check(last, 100, 2, 300, 0)).as(check.problem()).isTrue();
        assertThat(check.heldParts()).isZero();
        assertThat(check.transactions()).isEqualTo(2);
    }

    @Test
    void shouldRejectAnAnswerInPartsWhenItsHeadersDoNotKeepTheCheckpointAndCountBefore() {
        byte[] first = new SampleStream().begin(200).insert(2, "b", "1.00").part().take();

        assertThat(check(first, 99, 0, 99, 2)).isFalse();
        assertThat(check.problem())
                .isEqualTo("parts header does not count the parts held: parts=2, held=1");
        assertThat(check(first, 99, 0, 200, 1)).isFalse();
        assertThat(check.problem())
                .isEqualTo(
                        "last SCN header not before the transaction in parts: lastScn=200,"
                                + " scn=200");
    }

    @Test
    void shouldRejectAContinuationWhenItIsNotTheTransactionHeldOrNotAsked() {
        SampleStream stream = new SampleStream();
        byte[] first = stream.begin(200).insert(2, "b", "1.00").part().take();
        byte[] other = new SampleStream().order(250, 3).take();

        assertThat(check(first, 99, 0, 99, 1)).as(check.problem()).isTrue();
        assertThat(check(other, 99, 1, 250, 0)).isFalse();
        assertThat(check.problem()).startsWith("transaction ends without END_OF_TRANSACTION");
        assertThat(check(first, 99, 2, 99, 3)).isFalse();
        assertThat(check.problem()).isEqualTo("parts asked for not held: parts=2, held=1");
    }

    @Test
    void shouldRejectAnAnswerWhenItEndsInsideAPart() {
        byte[] cut = new SampleStream().begin(200).insert(2, "b", "1.00").take();

        assertThat(check(cut, 99, 0, 99, 1)).isFalse();
        assertThat(check.problem()).startsWith("response ends inside a transaction");
    }
}
