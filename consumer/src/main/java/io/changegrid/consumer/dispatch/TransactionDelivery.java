package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.protocol.SnapshotCursor;
import java.nio.ByteBuffer;

/**
 * Hands one transaction (or snapshot chunk) of the consumer buffer to the callback: {@code
 * onStartTransaction}, {@code onEvent} per frame, {@code onEndTransaction}, and after a snapshot's
 * last chunk {@code onSnapshotComplete}; before an entry that begins a table's copy, {@code
 * onSnapshotStart}. Stops at the first result that is not SUCCESS. A transaction in parts is handed
 * over a part at a time ({@link #deliverPart}): {@code onStartTransaction} at its first part, whose
 * {@link TransactionInfo} counts are not known yet (-1), the events as they come, {@code
 * onEndTransaction} with the counts at its last part.
 *
 * <p>Not thread-safe: the dispatcher thread's.
 */
final class TransactionDelivery {

    /** Why a delivery stopped: the result, the callback method, and where. */
    record Abandoned(CallbackResult result, String method, long scn, int index, Throwable cause) {}

    private final ByteBuffer frames;
    private final FrameEventView view;
    private final ConsumerCallback callback;
    private final EventFrame frame = new EventFrame();
    private int bytes;
    private TransactionInfo parts; // the transaction in parts being delivered
    private int partsDelivered; // its events delivered so far

    TransactionDelivery(ByteBuffer frames, FrameEventView view, ConsumerCallback callback) {
        this.frames = frames;
        this.view = view;
        this.callback = callback;
    }

    /** The frame bytes of the transaction the last {@link #deliver} handed over whole. */
    int bytes() {
        return bytes;
    }

    /**
     * Delivers the part of a transaction in parts {@code cursor} is on; after the last part, the
     * transaction is complete. {@link #bytes()} is then the part's.
     *
     * @param first whether it is the transaction's first part
     * @return null if every call succeeded, else why it stopped
     */
    Abandoned deliverPart(BufferCursor cursor, boolean first) {
        bytes = 0;
        frame.wrap(frames, cursor.transactionStart());
        long scn = frame.scn();
        CallbackResult result;
        if (first) {
            parts =
                    new TransactionInfo(
                            frame.sourceId(),
                            scn,
                            frame.transactionId(),
                            frame.commitTimeMicros(),
                            -1,
                            -1);
            partsDelivered = 0;
            try {
                result = callback.onStartTransaction(parts);
            } catch (Throwable t) {
                return new Abandoned(CallbackResult.FAIL, "onStartTransaction", scn, -1, t);
            }
            if (result != CallbackResult.SUCCESS) {
                return new Abandoned(result, "onStartTransaction", scn, -1, null);
            }
        }
        Abandoned stopped = deliverEvents(cursor, cursor.frames(), parts.transactionId());
        if (stopped != null) {
            return stopped;
        }
        partsDelivered += cursor.frames();
        if (cursor.continues()) {
            return null;
        }
        frame.wrap(frames, cursor.endFrame());
        TransactionInfo whole =
                new TransactionInfo(
                        parts.sourceId(),
                        scn,
                        parts.transactionId(),
                        frame.commitTimeMicros(),
                        frame.index(),
                        partsDelivered);
        try {
            result = callback.onEndTransaction(whole);
        } catch (Throwable t) {
            return new Abandoned(CallbackResult.FAIL, "onEndTransaction", scn, -1, t);
        }
        return result == CallbackResult.SUCCESS
                ? null
                : new Abandoned(result, "onEndTransaction", scn, -1, null);
    }

    /** The events delivered of the transaction in parts being delivered. */
    int partsDelivered() {
        return partsDelivered;
    }

    private Abandoned deliverEvents(BufferCursor cursor, int count, String transactionId) {
        int offset = cursor.transactionStart();
        int source = cursor.source();
        for (int i = 0; i < count; i++) {
            view.wrap(frames, offset, source, transactionId);
            CallbackResult result;
            try {
                result = callback.onEvent(view);
            } catch (Throwable t) {
                return new Abandoned(CallbackResult.FAIL, "onEvent", view.scn(), view.index(), t);
            }
            if (result != CallbackResult.SUCCESS) {
                return new Abandoned(result, "onEvent", view.scn(), view.index(), null);
            }
            offset += view.frameLength();
        }
        bytes = offset - cursor.transactionStart();
        return null;
    }

    /**
     * Tells the callback that the copy of the table {@code cursor} names begins, before anything of
     * the entry that carries its first chunk.
     *
     * @param scn the checkpoint before the entry, for the error's record
     * @return null if the call succeeded, else why it stopped
     */
    Abandoned begin(BufferCursor cursor, long scn) {
        SnapshotCursor begins = cursor.begins();
        CallbackResult result;
        try {
            result = callback.onSnapshotStart(begins.database(), begins.table());
        } catch (Throwable t) {
            return new Abandoned(CallbackResult.FAIL, "onSnapshotStart", scn, -1, t);
        }
        return result == CallbackResult.SUCCESS
                ? null
                : new Abandoned(result, "onSnapshotStart", scn, -1, null);
    }

    /**
     * Delivers the transaction {@code cursor} is on.
     *
     * @return null if every call succeeded, else why it stopped
     */
    Abandoned deliver(BufferCursor cursor) {
        bytes = 0;
        frame.wrap(frames, cursor.endFrame());
        int eventCount = frame.index();
        frame.wrap(frames, cursor.transactionStart());
        TransactionInfo transaction =
                new TransactionInfo(
                        frame.sourceId(),
                        frame.scn(),
                        frame.transactionId(),
                        frame.commitTimeMicros(),
                        eventCount,
                        cursor.frames(),
                        cursor.chunk(),
                        cursor.completesSnapshot(),
                        cursor.chunk() ? cursor.snapshot() : null);
        long scn = transaction.scn();
        CallbackResult result;
        try {
            result = callback.onStartTransaction(transaction);
        } catch (Throwable t) {
            return new Abandoned(CallbackResult.FAIL, "onStartTransaction", scn, -1, t);
        }
        if (result != CallbackResult.SUCCESS) {
            return new Abandoned(result, "onStartTransaction", scn, -1, null);
        }
        Abandoned stopped =
                deliverEvents(cursor, transaction.deliveredCount(), transaction.transactionId());
        if (stopped != null) {
            return stopped;
        }
        int delivered = bytes;
        bytes = 0;
        try {
            result = callback.onEndTransaction(transaction);
        } catch (Throwable t) {
            return new Abandoned(CallbackResult.FAIL, "onEndTransaction", scn, -1, t);
        }
        if (result != CallbackResult.SUCCESS) {
            return new Abandoned(result, "onEndTransaction", scn, -1, null);
        }
        bytes = delivered;
        if (transaction.completesSnapshot()) {
            try {
                result = callback.onSnapshotComplete();
            } catch (Throwable t) {
                return new Abandoned(CallbackResult.FAIL, "onSnapshotComplete", scn, -1, t);
            }
            if (result != CallbackResult.SUCCESS) {
                return new Abandoned(result, "onSnapshotComplete", scn, -1, null);
            }
        }
        return null;
    }
}
