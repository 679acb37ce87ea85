package io.changegrid.consumer.pull;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.CorruptFrameException;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Checks a relay response body before it is handed to the dispatcher: every frame with {@link
 * FrameLayout#checkFrame} (bounds, checksum, header), and the stream's shape: whole transactions
 * (frames of one SCN closed by an END_OF_TRANSACTION frame), heartbeats only between transactions,
 * SCNs after the checkpoint asked for, increasing, and not beyond the checkpoint the relay gave;
 * every frame of the relay's source; and the checkpoint the relay gave not above the newest SCN it
 * says it holds (a checkpoint taken on trust there would skip every transaction below it). The
 * dispatcher then reads frames without checking them again.
 *
 * <p>An expected condition, so a return code: {@link #check} returns false and {@link #problem()}
 * says what and at which offset of the body.
 *
 * <p>Not thread-safe: one per puller.
 */
public final class ResponseCheck {

    private final EventFrame frame = new EventFrame();
    private final CRC32C crc = new CRC32C();
    private String problem;
    private int transactions;
    private long snapshotScn = Long.MIN_VALUE;

    /**
     * Checks the body in {@code [offset, offset + length)} of {@code buffer}.
     *
     * @param from the checkpoint the request asked to continue after (-1: from the oldest)
     * @param headers the checkpoint the relay gave for the response, the newest SCN it holds and
     *     its source
     * @return true if the body is well formed
     */
    boolean check(ByteBuffer buffer, int offset, int length, long from, StreamHeaders headers) {
        problem = null;
        snapshotScn = Long.MIN_VALUE;
        long lastScn = headers.lastScn();
        transactions = 0;
        int end = offset + length;
        long previous = from;
        long previousTransaction = from;
        boolean inTransaction = false;
        long transactionScn = 0;
        int lastIndex = -1;
        int frames = 0;
        int position = offset;
        boolean chunkEnded = false;
        while (position < end) {
            int frameLength;
            try {
                frameLength = FrameLayout.checkFrame(buffer, position, end, crc);
            } catch (CorruptFrameException e) {
                return fail("corrupt frame: offset=" + (position - offset) + ": " + e.getMessage());
            }
            frame.wrap(buffer, position);
            long scn = frame.scn();
            if (frame.sourceId() != headers.sourceId()) {
                return fail(
                        problemAt("frame of another source", position - offset, scn)
                                + ", frameSourceId="
                                + frame.sourceId()
                                + ", relaySourceId="
                                + headers.sourceId());
            }
            int op = frame.operationCode();
            if (chunkEnded) {
                return fail(problemAt("frames after a snapshot chunk", position - offset, scn));
            }
            if (inTransaction && frame.isSnapshot() != inChunk(transactionScn)) {
                return fail(
                        problemAt(
                                "snapshot and live frames in one transaction",
                                position - offset,
                                scn));
            }
            if (frame.isSnapshot()) {
                // A snapshot chunk (docs/bootstrap.md): the body's last transaction, placed after
                // its live transactions at the chunk's high watermark; it moves no checkpoint.
                if (!inTransaction) {
                    if (scn <= previousTransaction || scn < previous) {
                        return fail(
                                problemAt(
                                        "snapshot chunk not after the live transactions",
                                        position - offset,
                                        scn));
                    }
                    inTransaction = true;
                    snapshotScn = scn;
                    transactionScn = scn;
                    lastIndex = -1;
                } else if (scn != transactionScn) {
                    return fail(problemAt("snapshot chunk SCN changes", position - offset, scn));
                }
                if (frame.index() <= lastIndex) {
                    return fail(problemAt("event index goes back", position - offset, scn));
                }
                lastIndex = frame.index();
                if (op == Operation.END_OF_TRANSACTION.code()) {
                    inTransaction = false;
                    chunkEnded = true;
                } else if (op != Operation.INSERT.code()) {
                    return fail(problemAt("snapshot row not an INSERT", position - offset, scn));
                }
                position += frameLength;
                continue;
            }
            if (op == Operation.HEARTBEAT.code()) {
                if (inTransaction) {
                    return fail(
                            problemAt("heartbeat inside a transaction", position - offset, scn));
                }
                if (scn < previous || scn <= from) {
                    return fail(problemAt("heartbeat SCN goes back", position - offset, scn));
                }
                previous = scn;
            } else {
                if (!inTransaction) {
                    if (scn <= previousTransaction || scn < previous) {
                        return fail(
                                problemAt(
                                        "transaction SCN not after the previous one",
                                        position - offset,
                                        scn));
                    }
                    inTransaction = true;
                    transactionScn = scn;
                    lastIndex = -1;
                    frames = 0;
                } else if (scn != transactionScn) {
                    return fail(
                            problemAt(
                                    "transaction ends without END_OF_TRANSACTION",
                                    position - offset,
                                    scn));
                }
                int index = frame.index();
                if (index <= lastIndex) {
                    return fail(problemAt("event index goes back", position - offset, scn));
                }
                lastIndex = index;
                if (op == Operation.END_OF_TRANSACTION.code()) {
                    if (index < frames) {
                        return fail(
                                problemAt(
                                        "event count below the events sent",
                                        position - offset,
                                        scn));
                    }
                    inTransaction = false;
                    previous = scn;
                    previousTransaction = scn;
                    transactions++;
                } else {
                    frames++;
                }
            }
            position += frameLength;
        }
        if (inTransaction) {
            return fail(
                    problemAt(
                            "response ends inside a transaction",
                            position - offset,
                            transactionScn));
        }
        if (length > 0 && lastScn < previous) {
            return fail(
                    "last SCN header before the last frame: lastScn="
                            + lastScn
                            + ", frameScn="
                            + previous);
        }
        if (lastScn < from) {
            return fail("last SCN header goes back: lastScn=" + lastScn + ", from=" + from);
        }
        // lastScn == from is a relay with nothing after the checkpoint (it may hold less).
        if (lastScn > from && lastScn > headers.newestScn()) {
            return fail(
                    "last SCN header above the newest SCN the relay holds: lastScn="
                            + lastScn
                            + ", newestScn="
                            + headers.newestScn());
        }
        return true;
    }

    /** Whether an open transaction at {@code scn} is the snapshot chunk being checked. */
    private boolean inChunk(long scn) {
        return snapshotScn == scn;
    }

    /** What the last failed {@link #check} found. */
    public String problem() {
        return problem;
    }

    /** The number of whole transactions the last successful {@link #check} found. */
    public int transactions() {
        return transactions;
    }

    private static String problemAt(String what, int offset, long scn) {
        return what + ": offset=" + offset + ", scn=" + scn;
    }

    private boolean fail(String what) {
        problem = what;
        return false;
    }
}
