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
 * onSnapshotStart}. Stops at the first result that is not SUCCESS.
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
        int source = cursor.source();
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
        int offset = cursor.transactionStart();
        for (int i = 0; i < transaction.deliveredCount(); i++) {
            view.wrap(frames, offset, source, transaction.transactionId());
            try {
                result = callback.onEvent(view);
            } catch (Throwable t) {
                return new Abandoned(CallbackResult.FAIL, "onEvent", scn, view.index(), t);
            }
            if (result != CallbackResult.SUCCESS) {
                return new Abandoned(result, "onEvent", scn, view.index(), null);
            }
            offset += view.frameLength();
        }
        try {
            result = callback.onEndTransaction(transaction);
        } catch (Throwable t) {
            return new Abandoned(CallbackResult.FAIL, "onEndTransaction", scn, -1, t);
        }
        if (result != CallbackResult.SUCCESS) {
            return new Abandoned(result, "onEndTransaction", scn, -1, null);
        }
        bytes = offset - cursor.transactionStart();
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
