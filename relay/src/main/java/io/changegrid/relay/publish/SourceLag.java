package io.changegrid.relay.publish;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How far the relay is behind its source, on the best clock the source offers ({@link LagClock}):
 * the delay from an entry's commit at the source to its receipt by the relay, measured when the
 * newest entry arrives (as Debezium's {@code MilliSecondsBehindSource} is), so that a relay that
 * keeps up shows milliseconds between two transactions, not the time since the last one.
 *
 * <p>A commit time with a sub-second part means the source stamps microseconds ({@link
 * LagClock#COMMIT_MICROS}): the delay is the receipt minus the commit. A transaction stamped in
 * whole seconds (the MariaDB binlog) would show up to a second of delay on a relay that is in fact
 * milliseconds behind, so the commit second is taken at its end: {@code max(0, received - (commit +
 * 999 ms))}, the least delay both stamps allow ({@link LagClock#RECEIVE_TIME}). A relay catching up
 * on a backlog shows the backlog's age, to within the second; a caught-up one shows 0. If the
 * relay's clock is more than that second behind the source's, its receipts say nothing and the lag
 * is now minus the commit second ({@link LagClock#COMMIT_SECONDS}).
 *
 * <p>The receive time is kept here, beside the buffer's newest SCN, and never goes into a frame:
 * replicas of a relay write identical frames, and each receives at its own time. Heartbeats are
 * read on the clock of the transactions before them. When nothing has arrived for {@link
 * #SILENT_AFTER_MILLIS} (heartbeats come far more often), the lag grows from the newest commit time
 * again, so that a silent source or a hung fetcher does not show a relay that keeps up.
 *
 * <p>Threading: {@link #received} on the fetcher thread; the readers from any thread (the newest
 * reading is published whole through one volatile field).
 */
final class SourceLag {

    /** How long without any entry before the lag is read against now again. */
    static final long SILENT_AFTER_MILLIS = 10_000;

    private static final long RESOLUTION_MILLIS = 999;

    /**
     * The newest entry as received.
     *
     * @param commitMillis its commit (or heartbeat) time
     * @param receivedMillis when the relay received it
     * @param delayMillis its delay at receipt; -1 when only now minus the commit tells
     * @param clock the clock the delay was read on
     */
    private record Reading(
            long commitMillis, long receivedMillis, long delayMillis, LagClock clock) {}

    private final LongSupplier wallClock;
    private volatile Reading newest;

    SourceLag(LongSupplier wallClock) {
        this.wallClock = wallClock;
    }

    /** The fetcher handed over an entry committed at {@code commitTimeMicros}. */
    void received(long commitTimeMicros, boolean transaction) {
        if (commitTimeMicros == 0) {
            return;
        }
        long received = wallClock.getAsLong();
        long commitMillis = TimeUnit.MICROSECONDS.toMillis(commitTimeMicros);
        Reading previous = newest;
        LagClock clock;
        long delay;
        if (!transaction) {
            clock = previous == null ? LagClock.COMMIT_MICROS : previous.clock();
            delay = Math.max(0, received - commitMillis);
        } else if (commitTimeMicros % 1_000_000 != 0) {
            clock = LagClock.COMMIT_MICROS;
            delay = Math.max(0, received - commitMillis);
        } else if (received + RESOLUTION_MILLIS >= commitMillis) {
            clock = LagClock.RECEIVE_TIME;
            delay = Math.max(0, received - commitMillis - RESOLUTION_MILLIS);
        } else {
            clock = LagClock.COMMIT_SECONDS; // the relay's clock is behind the source's
            delay = -1;
        }
        newest = new Reading(commitMillis, received, delay, clock);
    }

    /** Milliseconds behind the source, or -1 before the first entry. */
    long lagMillis() {
        Reading now = newest;
        if (now == null) {
            return -1;
        }
        long wall = wallClock.getAsLong();
        long sinceCommit = Math.max(0, wall - now.commitMillis());
        if (now.delayMillis() < 0) {
            return sinceCommit;
        }
        return wall - now.receivedMillis() > SILENT_AFTER_MILLIS
                ? Math.max(now.delayMillis(), sinceCommit)
                : now.delayMillis();
    }

    /** The clock {@link #lagMillis} is read on; null before the first entry. */
    LagClock clock() {
        Reading now = newest;
        return now == null ? null : now.clock();
    }

    /** When the relay received its newest entry, milliseconds since the epoch, or -1. */
    long receivedMillis() {
        Reading now = newest;
        return now == null ? -1 : now.receivedMillis();
    }
}
