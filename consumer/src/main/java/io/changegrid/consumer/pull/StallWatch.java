package io.changegrid.consumer.pull;

/**
 * Judges whether the relay the puller reads has stopped hearing from its source: its {@link
 * io.changegrid.protocol.StreamResponse#SOURCE_TIME} has not changed for {@code fetch.stallTimeout}
 * by the consumer's own monotonic clock. Pure logic fed by the puller, so that every case is
 * unit-tested.
 *
 * <ul>
 *   <li>A relay's source time is compared only with earlier values of the same relay, never with
 *       the consumer's clock: clocks of hosts differ. Any change counts as progress, not only a
 *       rise: a relay's heartbeats carry its own clock, its transactions the source's commit
 *       seconds, so the value may step back a little while the fetcher is healthy.
 *   <li>The watch starts afresh whenever the puller moves to a relay: the relay is given a whole
 *       {@code stallTimeout} from then. So when the source itself went quiet for every relay (the
 *       source server hangs), the consumer moves on once per {@code stallTimeout}, not once per
 *       response.
 *   <li>A relay that does not send the header (older) is never judged stalled, nor is any relay
 *       when the timeout is 0 (off).
 * </ul>
 *
 * <p>Not thread-safe: owned by the puller thread.
 */
final class StallWatch {

    /** What {@link #observe} returns while the relay is not stalled. */
    static final long NOT_STALLED = -1;

    private final long timeoutNanos;
    private int relay = -1;
    private long sourceTime;
    private long changedNanos;

    /**
     * @param timeoutNanos how long a relay's source time may stay unchanged, 0 for never judged
     */
    StallWatch(long timeoutNanos) {
        if (timeoutNanos < 0) {
            throw new IllegalArgumentException("negative stall timeout: nanos=" + timeoutNanos);
        }
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Takes the source time of one answer of a relay.
     *
     * @param relayIndex the relay that answered
     * @param sourceTimeMillis its source time, or {@link StreamHeaders#NO_SOURCE_TIME}
     * @param nowNanos the consumer's monotonic clock ({@link System#nanoTime()})
     * @return how long, in nanoseconds, the relay's source time has not changed when that is at
     *     least the timeout, else {@link #NOT_STALLED}
     */
    long observe(int relayIndex, long sourceTimeMillis, long nowNanos) {
        if (relayIndex != relay
                || sourceTimeMillis != sourceTime
                || sourceTimeMillis == StreamHeaders.NO_SOURCE_TIME) {
            relay = relayIndex;
            sourceTime = sourceTimeMillis;
            changedNanos = nowNanos;
            return NOT_STALLED;
        }
        long unchanged = nowNanos - changedNanos;
        return timeoutNanos > 0 && unchanged >= timeoutNanos ? unchanged : NOT_STALLED;
    }

    /**
     * Forgets the relay watched: the next answer, from whichever relay, starts a fresh window. The
     * puller calls it when it moves to another relay.
     */
    void reset() {
        relay = -1;
    }
}
