package io.changegrid.consumer.api;

/**
 * What a callback says about the work it was handed, ordered by severity: {@code SUCCESS < RETRY <
 * FAIL}, so the worse of two results is the one with the larger ordinal.
 */
public enum CallbackResult {
    /** Processed; the consumer goes on and checkpoints once the batch ends. */
    SUCCESS,
    /**
     * Not processed now, but may succeed later (a target briefly unavailable, a lock timeout):
     * {@link ConsumerCallback#onRollback} is called, and after a backoff everything after the last
     * checkpoint is delivered again, starting with {@link ConsumerCallback#onStartBatch}.
     */
    RETRY,
    /**
     * Cannot be processed: {@link ConsumerCallback#onRollback} is called and the consumer stops
     * with a {@link CallbackFailedException}. The checkpoint stays before the failed transaction,
     * so nothing is ever skipped; a restarted consumer delivers it again.
     */
    FAIL;

    /** The more severe of this result and {@code other}. */
    public CallbackResult worst(CallbackResult other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
