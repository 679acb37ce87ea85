package io.changegrid.consumer.sink;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;

/**
 * Hands every call to another callback and counts what a snapshot delivered: snapshot rows apart
 * from live events, and when the snapshot completed. For a program that shows or times a snapshot
 * (the quickstart, the benchmark) around a callback that does the work (an applier, a counter).
 *
 * <p>It is not a {@link io.changegrid.consumer.api.CheckpointingCallback}: a consumer given it is
 * given the delegate's checkpoint store explicitly.
 *
 * <p>Threading: called on the dispatcher thread; the counters may be read from any thread.
 */
public final class SnapshotCountingCallback implements ConsumerCallback {

    private final ConsumerCallback delegate;
    private long snapshotCount;
    private long liveCount;
    private volatile long snapshotRows;
    private volatile long liveEvents;
    private volatile long completedNanos;
    private volatile long liveEventsAtCompletion = -1;

    public SnapshotCountingCallback(ConsumerCallback delegate) {
        this.delegate = delegate;
    }

    @Override
    public CallbackResult onStartBatch() {
        return delegate.onStartBatch();
    }

    @Override
    public CallbackResult onStartTransaction(TransactionInfo transaction) {
        return delegate.onStartTransaction(transaction);
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        CallbackResult result = delegate.onEvent(event);
        if (event.isSnapshot()) {
            snapshotCount++;
        } else {
            liveCount++;
        }
        return result;
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        CallbackResult result = delegate.onEndTransaction(transaction);
        // Published per transaction, as the delegate has it whole; a retried one counts again.
        snapshotRows = snapshotCount;
        liveEvents = liveCount;
        return result;
    }

    @Override
    public CallbackResult onEndBatch(long checkpointScn) {
        return delegate.onEndBatch(checkpointScn);
    }

    @Override
    public CallbackResult onEndBatch(Checkpoint checkpoint) {
        return delegate.onEndBatch(checkpoint);
    }

    @Override
    public CallbackResult onSnapshotComplete() {
        CallbackResult result = delegate.onSnapshotComplete();
        if (result == CallbackResult.SUCCESS && completedNanos == 0) {
            liveEventsAtCompletion = liveCount;
            completedNanos = System.nanoTime();
        }
        return result;
    }

    @Override
    public void onRollback(long checkpointScn) {
        delegate.onRollback(checkpointScn);
    }

    /** Snapshot rows handed over so far (a chunk's rows again if its batch was retried). */
    public long snapshotRows() {
        return snapshotRows;
    }

    /** Live (not snapshot) events handed over so far. */
    public long liveEvents() {
        return liveEvents;
    }

    /** Whether {@link #onSnapshotComplete()} was called and succeeded. */
    public boolean snapshotComplete() {
        return completedNanos != 0;
    }

    /** {@link System#nanoTime()} when the snapshot completed; 0 before. */
    public long completedNanos() {
        return completedNanos;
    }

    /** Live events handed over when the snapshot completed; -1 before. */
    public long liveEventsAtCompletion() {
        return liveEventsAtCompletion;
    }
}
