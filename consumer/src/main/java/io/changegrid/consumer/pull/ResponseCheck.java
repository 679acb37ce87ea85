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
 * <p>Transactions in parts (docs/event-format.md, "Transactions in parts"): a part ends with an
 * END_OF_TRANSACTION frame with {@code FLAG_CONTINUED}, and the next part goes on with the same SCN
 * and event indexes. A body may end after a part end; then the relay's {@code X-Changegrid-Parts}
 * must count the parts held (those the request said it held, if the body did not end the
 * transaction first, plus those in the body) and its checkpoint must stay before the transaction.
 * The check keeps the open transaction (its SCN, its next index, its events so far) for the next
 * body, which must continue it when asked with {@code parts}.
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

    // The transaction in parts the last successful check ended inside: parts held, SCN, the index
    // its next part's first event may not go below, and the events delivered so far.
    private int heldParts;
    private long heldScn;
    private int heldIndex;
    private int heldFrames;

    /**
     * Checks the body in {@code [offset, offset + length)} of {@code buffer}.
     *
     * @param from the checkpoint the request asked to continue after (-1: from the oldest)
     * @param headers the checkpoint the relay gave for the response, the newest SCN it holds and
     *     its source
     * @return true if the body is well formed
     */
    boolean check(ByteBuffer buffer, int offset, int length, long from, StreamHeaders headers) {
        return check(buffer, offset, length, from, 0, headers);
    }

    /**
     * Checks a body as {@link #check(ByteBuffer, int, int, long, StreamHeaders)}, asked with {@code
     * parts} parts of the transaction after {@code from} held: the body must continue the
     * transaction the last successful check ended inside.
     */
    boolean check(
            ByteBuffer buffer,
            int offset,
            int length,
            long from,
            int parts,
            StreamHeaders headers) {
        problem = null;
        boolean continuing = parts > 0;
        if (continuing && parts != heldParts) {
            return fail("parts asked for not held: parts=" + parts + ", held=" + heldParts);
        }
        snapshotScn = Long.MIN_VALUE;
        long lastScn = headers.lastScn();
        transactions = 0;
        int end = offset + length;
        long previous = from;
        long previousTransaction = from;
        boolean inTransaction = continuing;
        long transactionScn = continuing ? heldScn : 0;
        int lastIndex = continuing ? heldIndex - 1 : -1;
        int frames = continuing ? heldFrames : 0;
        int held = parts;
        boolean atPartEnd = continuing;
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
                atPartEnd = false;
                if (op == Operation.END_OF_TRANSACTION.code()) {
                    if (index < frames) {
                        return fail(
                                problemAt(
                                        "event count below the events sent",
                                        position - offset,
                                        scn));
                    }
                    if (frame.continues()) {
                        // A part end takes no index: the next part's first event may have it.
                        lastIndex = index - 1;
                        held++;
                        atPartEnd = true;
                        position += frameLength;
                        continue;
                    }
                    held = 0;
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
        boolean inParts = inTransaction && atPartEnd && !inChunk(transactionScn);
        if (inTransaction && !inParts) {
            return fail(
                    problemAt(
                            "response ends inside a transaction",
                            position - offset,
                            transactionScn));
        }
        if (headers.parts() != held) {
            return fail(
                    "parts header does not count the parts held: parts="
                            + headers.parts()
                            + ", held="
                            + held);
        }
        if (inParts && lastScn >= transactionScn) {
            return fail(
                    "last SCN header not before the transaction in parts: lastScn="
                            + lastScn
                            + ", scn="
                            + transactionScn);
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
        heldParts = held;
        heldScn = transactionScn;
        heldIndex = lastIndex + 1;
        heldFrames = frames;
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

    /**
     * The parts of the transaction after the checkpoint the consumer holds after the last
     * successful {@link #check}: 0 unless its body ended inside a transaction in parts.
     */
    public int heldParts() {
        return heldParts;
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
