package io.changegrid.relay.publish;

import io.changegrid.events.frame.EventFrame;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.state.PositionStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Takes whole transactions from the fetcher and appends each atomically to the event buffer, then
 * records how far the relay has published. The relay's policies apply here; until the policy engine
 * lands every transaction passes through unchanged.
 *
 * <p>The position is saved after the transaction it names was appended, at most every {@code
 * saveIntervalNanos}, so a restart never skips a transaction and re-reads at most one interval.
 *
 * <p>Threading: called on the fetcher thread only; the counters and gauges it feeds are read from
 * any thread.
 */
public final class Publisher implements TransactionSink {

    private final EventBuffer buffer;
    private final PositionStore positions;
    private final long saveIntervalNanos;
    private final EventFrame frame = new EventFrame();
    private final Counter transactions;
    private final Counter events;
    private final Counter bytes;
    private volatile long lastCommitTimeMicros;
    private volatile long lastScn = -1;
    private long savedNanos = System.nanoTime();
    private long unsavedScn = -1;
    private String unsavedPosition;

    public Publisher(
            EventBuffer buffer,
            PositionStore positions,
            long saveIntervalNanos,
            MeterRegistry metrics) {
        this.buffer = buffer;
        this.positions = positions;
        this.saveIntervalNanos = saveIntervalNanos;
        this.transactions =
                Counter.builder("changegrid.relay.published.transactions")
                        .description("Transactions and heartbeats appended to the event buffer")
                        .register(metrics);
        this.events =
                Counter.builder("changegrid.relay.published.events")
                        .description("Row and schema-change events appended to the event buffer")
                        .register(metrics);
        this.bytes =
                Counter.builder("changegrid.relay.published.bytes")
                        .baseUnit("bytes")
                        .description("Frame bytes appended to the event buffer")
                        .register(metrics);
    }

    @Override
    public void accept(long scn, ByteBuffer frames, int length, String resumePosition) {
        long appended = buffer.append(scn, frames, 0, length);
        if (appended == EventBuffer.TRANSACTION_TOO_LARGE) {
            throw new IllegalStateException(
                    "transaction larger than a buffer segment: scn="
                            + scn
                            + ", bytes="
                            + length
                            + ", buffer.segmentSize="
                            + buffer.maxTransactionBytes()
                            + "; raise buffer.segmentSize (up to 1GiB)");
        }
        frame.wrap(frames, 0);
        lastCommitTimeMicros = frame.commitTimeMicros();
        lastScn = scn;
        transactions.increment();
        bytes.increment(length);
        events.increment(countEvents(frames, length));
        unsavedScn = scn;
        unsavedPosition = resumePosition;
        long now = System.nanoTime();
        if (now - savedNanos >= saveIntervalNanos) {
            flush();
            savedNanos = now;
        }
    }

    /** Saves the latest published position now, e.g. on shutdown. Fetcher thread only. */
    public void flush() {
        if (unsavedPosition != null) {
            positions.save(unsavedScn, unsavedPosition);
            unsavedPosition = null;
        }
    }

    /** The SCN last published, or -1. */
    public long lastScn() {
        return lastScn;
    }

    /** The source commit time of what was last published, in epoch microseconds, or 0. */
    public long lastCommitTimeMicros() {
        return lastCommitTimeMicros;
    }

    /** Milliseconds between the source commit of the last published transaction and now. */
    public long lagMillis() {
        long commit = lastCommitTimeMicros;
        return commit == 0
                ? -1
                : Math.max(0, System.currentTimeMillis() - TimeUnit.MICROSECONDS.toMillis(commit));
    }

    /** The row and schema-change events of one entry: an END_OF_TRANSACTION frame's index. */
    private int countEvents(ByteBuffer frames, int length) {
        int offset = 0;
        int lastOffset = 0;
        while (offset < length) {
            lastOffset = offset;
            offset += frame.wrap(frames, offset).length();
        }
        frame.wrap(frames, lastOffset);
        return frame.isEndOfTransaction() ? frame.index() : 0;
    }
}
