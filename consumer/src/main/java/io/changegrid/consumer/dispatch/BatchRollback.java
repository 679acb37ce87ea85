package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.api.CallbackFailedException;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.Backoff;
import io.changegrid.consumer.config.ConsumerConfig;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes a batch the {@link Dispatcher} did not checkpoint: tells the callback ({@code
 * onRollback}), and goes back to the checkpoint, in the buffer or, when entries of a transaction in
 * parts were released already, by having the puller fetch again from it ({@link
 * ConsumerBuffer#requestRestart}). For RETRY it counts the retries in a row and waits a backoff.
 * Whenever the dispatcher must stop instead, it throws the {@link CallbackFailedException} the
 * dispatcher stops with.
 *
 * <p>Threading: the dispatcher thread's; {@link #retries()} from any thread.
 */
final class BatchRollback {

    // The dispatcher's logger: these lines are the dispatcher's, where operators look for them.
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final ConsumerCallback callback;
    private final ConsumerBuffer buffer;
    private final BufferCursor cursor;
    private final CheckpointProgress progress;
    private final PartsDelivery parts;
    private final Backoff retryBackoff;
    private final int retryLimit;
    private final CountDownLatch stopRequested;
    private int retriesInRow;
    private volatile long retries;

    /**
     * @param config the retry settings
     * @param stopRequested counted down when the dispatcher is asked to stop, which ends a backoff
     */
    BatchRollback(
            ConsumerConfig config,
            ConsumerCallback callback,
            ConsumerBuffer buffer,
            BufferCursor cursor,
            CheckpointProgress progress,
            PartsDelivery parts,
            CountDownLatch stopRequested) {
        this.callback = callback;
        this.buffer = buffer;
        this.cursor = cursor;
        this.progress = progress;
        this.parts = parts;
        this.retryBackoff = config.retryBackoff();
        this.retryLimit = config.retryLimit();
        this.stopRequested = stopRequested;
    }

    /** RETRY results so far. */
    long retries() {
        return retries;
    }

    /** A batch was checkpointed: the next RETRY is the first in a row. */
    void succeeded() {
        retriesInRow = 0;
    }

    /** {@link #abandon(CallbackResult, String, long, int, Throwable)} for what a delivery said. */
    void abandon(TransactionDelivery.Abandoned abandoned) throws InterruptedException {
        abandon(
                abandoned.result(),
                abandoned.method(),
                abandoned.scn(),
                abandoned.index(),
                abandoned.cause());
    }

    /**
     * Rolls the batch back and goes back to the checkpoint; for RETRY waits a backoff.
     *
     * @throws CallbackFailedException if the dispatcher must stop: the result is FAIL or null, the
     *     callback retried too often, or failed to roll back
     */
    void abandon(CallbackResult result, String method, long scn, int index, Throwable cause)
            throws InterruptedException {
        String where =
                "method="
                        + method
                        + ", scn="
                        + scn
                        + (index >= 0 ? ", index=" + index : "")
                        + ", checkpoint="
                        + progress.savedScn();
        try {
            callback.onRollback(progress.savedScn());
        } catch (Throwable t) {
            if (cause != null) {
                t.addSuppressed(cause);
            }
            throw new CallbackFailedException("callback failed in onRollback: " + where, scn, t);
        }
        rewind();
        if (result == null) {
            throw new CallbackFailedException("callback returned null: " + where, scn, null);
        }
        if (result == CallbackResult.FAIL) {
            throw new CallbackFailedException(
                    (cause == null ? "callback failed: " : "callback threw: ")
                            + where
                            + (cause == null ? "" : ", error=" + cause),
                    scn,
                    cause);
        }
        retries = retries + 1;
        retriesInRow++;
        if (retryLimit > 0 && retriesInRow > retryLimit) {
            throw new CallbackFailedException(
                    "callback asked to retry too often: "
                            + where
                            + ", retries="
                            + retriesInRow
                            + ", callback.retryLimit="
                            + retryLimit,
                    scn,
                    null);
        }
        long waitNanos = retryBackoff.delayNanos(retriesInRow);
        LOG.info(
                "callback asked to retry, delivering again from the checkpoint: {}, attempt={}, waitMillis={}",
                where,
                retriesInRow,
                TimeUnit.NANOSECONDS.toMillis(waitNanos));
        stopRequested.await(waitNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The gate closed: nothing more of this batch reaches the callback, and nothing is
     * checkpointed; back to the checkpoint, to deliver again from there if the gate opens.
     *
     * @param started whether the callback was told of the batch ({@code onStartBatch})
     * @throws CallbackFailedException if the callback failed to roll back
     */
    void suspend(boolean started) {
        if (started) {
            rollBack();
        }
        rewind();
    }

    /**
     * A relay sends the transaction in parts being delivered again from its start: what was
     * delivered of it is rolled back, and delivery goes on with the new entry.
     *
     * @throws CallbackFailedException if the callback failed to roll back
     */
    void startOver() {
        LOG.info(
                "a transaction in parts starts over (the relay was asked afresh), delivering it"
                        + " again from its start: checkpoint={}",
                progress.savedScn());
        rollBack();
        progress.rewind();
        cursor.mark();
        cursor.releaseRead();
        parts.forget();
    }

    /** {@code onRollback} outside a callback failure. */
    private void rollBack() {
        try {
            callback.onRollback(progress.savedScn());
        } catch (Throwable t) {
            throw new CallbackFailedException(
                    "callback failed in onRollback: method=onRollback, checkpoint="
                            + progress.savedScn(),
                    progress.savedScn(),
                    t);
        }
    }

    /**
     * Back to the checkpoint after a rollback: in the buffer, or, when entries of a transaction in
     * parts were released already, by fetching again from it.
     */
    private void rewind() {
        if (parts.released()) {
            LOG.info(
                    "fetching again from the checkpoint: a transaction in parts was rolled back"
                            + " after some of its parts left the buffer: checkpoint={}",
                    progress.savedScn());
            cursor.restart(buffer.requestRestart(progress.savedScn(), progress.savedSnapshot()));
            parts.forget();
        } else {
            cursor.rewind();
        }
        progress.rewind();
    }
}
