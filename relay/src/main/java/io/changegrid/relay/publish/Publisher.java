package io.changegrid.relay.publish;

import io.changegrid.fetchers.TransactionSink;
import io.changegrid.relay.buffer.BufferRecovery;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.SegmentPositions;
import io.changegrid.relay.state.PositionStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Takes whole transactions from the fetcher and appends each atomically to the event buffer, then
 * records where a restart would have to read from to rebuild the buffer. The fetcher already
 * applied the relay's policies, and says how many events each transaction holds and when it
 * committed, so nothing here walks the frames.
 *
 * <p>The replay point is the source position just before the oldest buffer segment still held
 * (segments are evicted whole): it is remembered for each segment's first entry and saved after
 * every append, and the position file is forced to disk every {@code syncIntervalNanos}.
 *
 * <p>A persistent buffer ({@link io.changegrid.relay.buffer.SegmentFiles}) is also told, after
 * every append, where the source stood before each segment's first entry and after its last one
 * ({@link SegmentPositions}), so that a restart recovers the buffer and reads the source only from
 * after its last entry. The order of writes is what makes a {@code kill -9} at any instant safe:
 * the entry's bytes, then its segment's records, then the position file. A kill before the
 * segment's tail record drops the entry at recovery (it is read again, with the same SCN); a kill
 * between the tail record and the position file leaves the position file one entry behind, which
 * recovery accepts (docs/relay.md, "positions and restarts").
 *
 * <p>A transaction too large for a segment arrives in parts ({@link #acceptPart}); they go into the
 * buffer as they come, unpublished, and the last part (through {@link #accept}) publishes them all
 * and writes every segment record the transaction touched, in log order, before the position file.
 * Each segment a part starts records the position before the transaction as its floor: a relay that
 * must rebuild that segment reads the whole transaction again.
 *
 * <p>Threading: called on the fetcher thread only; the counters and gauges it feeds are read from
 * any thread.
 */
public final class Publisher implements TransactionSink {

    /** The position just before an entry and the SCN before it. */
    private record ReplayPoint(long floorScn, String position) {}

    private final EventBuffer buffer;
    private final PositionStore positions;
    private final SegmentPositions segmentPositions;
    private final int segmentShift;
    private final long syncIntervalNanos;
    private final long segmentMask;
    private final TreeMap<Long, ReplayPoint> segmentStarts = new TreeMap<>();
    private final Counter transactions;
    private final Counter events;
    private final Counter bytes;
    private volatile long lastCommitTimeMicros;
    private final SourceLag lag = new SourceLag(System::currentTimeMillis);
    private volatile long lastEntryNanos = System.nanoTime();
    private volatile long lastScn = -1;
    private long previousScn;
    private String previousPosition;
    private long syncedNanos = System.nanoTime();

    /** Where the open transaction's parts start and end in the log, in pairs. */
    private long[] partBounds = new long[32];

    private int partBoundCount;

    private volatile boolean takesParts;

    /** Frame bytes of the open transaction's parts. */
    private long partBytes;

    /** The replay position last saved, and the one last forced to disk. */
    private String savedPosition;

    private volatile String durablePosition;

    public Publisher(
            EventBuffer buffer,
            PositionStore positions,
            SegmentPositions segmentPositions,
            long syncIntervalNanos,
            MeterRegistry metrics) {
        this.buffer = buffer;
        this.positions = positions;
        this.segmentPositions = segmentPositions;
        this.segmentShift = Integer.numberOfTrailingZeros(buffer.config().segmentBytes());
        this.syncIntervalNanos = syncIntervalNanos;
        this.segmentMask = buffer.config().segmentBytes() - 1L;
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

    /**
     * Where the fetcher starts: the SCN before its first transaction and its position. Before the
     * first {@link #accept}.
     */
    public void start(long floorScn, String position) {
        previousScn = floorScn;
        previousPosition = position;
    }

    /**
     * Goes on after a recovered buffer ({@link BufferRecovery}): the fetcher starts right after its
     * last entry, and the replay point of each recovered segment is known again. Before the first
     * {@link #accept}, instead of {@link #start}.
     */
    public void resume(BufferRecovery.Recovered recovered) {
        previousScn = recovered.lastScn();
        previousPosition = recovered.resumePosition();
        lastScn = recovered.lastScn();
        for (BufferRecovery.SegmentStart segment : recovered.segments()) {
            segmentStarts.putIfAbsent(
                    segment.firstScn(),
                    new ReplayPoint(segment.floorScn(), segment.floorPosition()));
        }
    }

    /**
     * Whether the fetcher may hand large transactions over in parts ({@code
     * buffer.transactionParts}). Before the fetcher starts.
     */
    public void takeParts(boolean on) {
        takesParts = on;
    }

    @Override
    public boolean takesParts() {
        return takesParts;
    }

    @Override
    public void acceptPart(long scn, ByteBuffer frames, int length) {
        long tail = refuseFailure(buffer.appendPart(scn, frames, 0, length), scn, length);
        if (partBoundCount == partBounds.length) {
            partBounds = Arrays.copyOf(partBounds, partBoundCount * 2);
        }
        partBounds[partBoundCount++] = tail - length;
        partBounds[partBoundCount++] = tail;
        partBytes += length;
    }

    @Override
    public void abandonParts() {
        buffer.abandonParts();
        partBoundCount = 0;
        partBytes = 0;
    }

    @Override
    public void accept(
            long scn,
            ByteBuffer frames,
            int length,
            int eventCount,
            long commitTimeMicros,
            String resumePosition) {
        long tail =
                refuseFailure(
                        buffer.appendEncoded(scn, frames, 0, length, eventCount == 0), scn, length);
        // The entry's bytes reach the files before the records that commit them (see above).
        VarHandle.storeStoreFence();
        for (int i = 0; i < partBoundCount; i += 2) {
            record(scn, partBounds[i], partBounds[i + 1], i == 0, resumePosition);
        }
        record(scn, tail - length, tail, partBoundCount == 0, resumePosition);
        partBoundCount = 0;
        VarHandle.storeStoreFence();
        previousScn = scn;
        previousPosition = resumePosition;
        Map.Entry<Long, ReplayPoint> oldest = segmentStarts.firstEntry();
        while (segmentStarts.size() > 1
                && segmentStarts.higherKey(oldest.getKey()) <= buffer.oldestScn()) {
            segmentStarts.pollFirstEntry(); // that segment was evicted
            oldest = segmentStarts.firstEntry();
        }
        positions.save(scn, oldest.getValue().floorScn(), oldest.getValue().position());
        savedPosition = oldest.getValue().position();
        long now = System.nanoTime();
        if (now - syncedNanos >= syncIntervalNanos) {
            sync();
            syncedNanos = now;
        }

        lastCommitTimeMicros = commitTimeMicros;
        lag.received(commitTimeMicros, eventCount > 0);
        lastEntryNanos = now;
        lastScn = scn;
        transactions.increment();
        bytes.increment(length + partBytes);
        partBytes = 0;
        events.increment(eventCount);
    }

    /**
     * Records an entry of the transaction at {@code scn} in {@code [start, end)} for the segment
     * files: a segment it starts gets the position before the transaction as its floor (the SCN
     * before it for its first entry, the transaction's own for a later part, which continues it).
     */
    private void record(long scn, long start, long end, boolean first, String resumePosition) {
        long sequence = start >>> segmentShift;
        if ((start & segmentMask) == 0) {
            segmentStarts.putIfAbsent(scn, new ReplayPoint(previousScn, previousPosition));
            segmentPositions.segmentStarted(sequence, first ? previousScn : scn, previousPosition);
        }
        segmentPositions.appended(
                sequence, scn, (int) (end - (sequence << segmentShift)), resumePosition);
    }

    private long refuseFailure(long tail, long scn, int length) {
        if (tail == EventBuffer.TRANSACTION_TOO_LARGE) {
            throw new IllegalStateException(
                    "transaction part larger than a buffer segment: scn="
                            + scn
                            + ", bytes="
                            + length
                            + ", buffer.segmentSize="
                            + buffer.maxTransactionBytes()
                            + "; raise buffer.segmentSize (up to 1GiB)");
        }
        if (tail == EventBuffer.LARGER_THAN_BUFFER) {
            throw new IllegalStateException(
                    "transaction larger than the event buffer can hold: scn="
                            + scn
                            + ", parts="
                            + partBoundCount / 2
                            + ", buffer.capacity="
                            + buffer.capacity()
                            + "; raise buffer.capacity (a transaction needs the capacity less two"
                            + " segments)");
        }
        return tail;
    }

    /** Forces the replay point to disk now, e.g. on shutdown. */
    public void sync() {
        positions.sync();
        if (savedPosition != null) {
            durablePosition = savedPosition;
        }
    }

    /**
     * The replay position last forced to disk: a source may release its log before it (a PostgreSQL
     * slot's confirmed flush), never past it.
     */
    @Override
    public String durablePosition() {
        return durablePosition;
    }

    /**
     * {@link System#nanoTime()} when the fetcher last handed over a transaction or heartbeat (when
     * this publisher was made, before the first): how long ago the relay last heard from its
     * source. Any thread.
     */
    public long lastEntryNanos() {
        return lastEntryNanos;
    }

    /** The SCN last published, or -1. */
    public long lastScn() {
        return lastScn;
    }

    /**
     * The source time of the last published transaction or heartbeat, in milliseconds since the
     * epoch, or -1 before the first: what consumers watch to tell a fetcher that no longer hears
     * from its source ({@link io.changegrid.protocol.StreamResponse#SOURCE_TIME}). Any thread.
     */
    public long sourceTimeMillis() {
        long commit = lastCommitTimeMicros;
        return commit == 0 ? -1 : TimeUnit.MICROSECONDS.toMillis(commit);
    }

    /**
     * How far the relay is behind its source, in milliseconds, on {@link #lagClock}'s clock, or -1
     * before the first entry ({@link SourceLag}).
     */
    public long lagMillis() {
        return lag.lagMillis();
    }

    /** The clock {@link #lagMillis} is read on; null before the first entry. */
    public LagClock lagClock() {
        return lag.clock();
    }

    /** When this relay received its newest entry (its own clock, never in a frame), or -1. */
    public long receivedMillis() {
        return lag.receivedMillis();
    }
}
