package io.changegrid.consumer.sink;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import java.nio.ByteBuffer;

/**
 * Counts events, transactions and frame bytes, touching every event the way a light real callback
 * would (its header fields, and the first and last byte of its frame) without decoding values: the
 * consumer's own cost, for benchmarks. Allocates nothing.
 *
 * <p>Threading: called on the dispatcher thread; the counters are published per transaction and may
 * be read from any thread.
 */
public final class CountingCallback implements ConsumerCallback {

    private long eventCount;
    private long byteCount;
    private long fold;
    private volatile long events;
    private volatile long transactions;
    private volatile long bytes;
    private volatile long checksum;

    @Override
    public CallbackResult onEvent(EventView event) {
        ByteBuffer frame = event.frameBuffer();
        int offset = event.frameOffset();
        int length = event.frameLength();
        fold =
                fold * 31
                        + event.scn()
                        + event.index()
                        + event.operation().code()
                        + event.tableId()
                        + event.schemaVersion()
                        + event.partitionHash()
                        + event.commitTimeMicros()
                        + frame.get(offset)
                        + frame.get(offset + length - 1);
        eventCount++;
        byteCount += length;
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        events = eventCount;
        bytes = byteCount;
        checksum = fold;
        transactions = transactions + 1;
        return CallbackResult.SUCCESS;
    }

    /** Events counted, re-deliveries included. */
    public long events() {
        return events;
    }

    /** Transactions counted. */
    public long transactions() {
        return transactions;
    }

    /** Frame bytes counted. */
    public long bytes() {
        return bytes;
    }

    /** A fold of every header field seen, so the reads cannot be optimized away. */
    public long checksum() {
        return checksum;
    }

    @Override
    public String toString() {
        return "CountingCallback[events="
                + events
                + ", transactions="
                + transactions
                + ", bytes="
                + bytes
                + "]";
    }
}
