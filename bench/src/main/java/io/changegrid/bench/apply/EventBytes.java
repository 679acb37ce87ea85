package io.changegrid.bench.apply;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;

/**
 * Passes every call to the applier and adds up the frame bytes of the events it was given: the real
 * size of the change stream a run applied, for its MB/s.
 *
 * <p>Threading: the consumer's dispatcher thread calls it; {@link #bytes()} may be read from any
 * thread.
 */
final class EventBytes implements ConsumerCallback {

    private final ConsumerCallback applier;
    private volatile long bytes;

    EventBytes(ConsumerCallback applier) {
        this.applier = applier;
    }

    /** Frame bytes (headers included) of the events delivered, redeliveries included. */
    long bytes() {
        return bytes;
    }

    @Override
    public CallbackResult onStartBatch() {
        return applier.onStartBatch();
    }

    @Override
    public CallbackResult onStartTransaction(TransactionInfo transaction) {
        return applier.onStartTransaction(transaction);
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        bytes = bytes + event.frameLength(); // one writer: the dispatcher thread
        return applier.onEvent(event);
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        return applier.onEndTransaction(transaction);
    }

    @Override
    public CallbackResult onEndBatch(long checkpointScn) {
        return applier.onEndBatch(checkpointScn);
    }

    @Override
    public void onRollback(long checkpointScn) {
        applier.onRollback(checkpointScn);
    }
}
