package io.changegrid.fetchers;

import java.nio.ByteBuffer;

/**
 * Where a fetcher hands what it read: whole transactions (their frames back to back, an
 * END_OF_TRANSACTION frame last) and heartbeats (one HEARTBEAT frame), in timeline order.
 *
 * <p>The fetcher's encoder wrote the frames and already knows how many events they hold and when
 * the source committed them; it says so here, so the sink need not walk the frames again to learn
 * it. The frames must be exactly what a {@link io.changegrid.events.frame.FrameEncoder} produced
 * for one transaction or one heartbeat: the sink trusts their shape.
 *
 * <p>Called on the fetcher's thread. The bytes are valid only during the call; an implementation
 * copies them (once) into its buffer. Blocking here slows the fetcher down, which is the intended
 * back pressure.
 */
@FunctionalInterface
public interface TransactionSink {

    /**
     * Accepts one transaction or heartbeat.
     *
     * @param scn the SCN of every frame given
     * @param frames the frames in {@code [0, length)}, little-endian
     * @param length the number of bytes
     * @param events the row and schema-change events of a transaction (at least one), or 0 for a
     *     heartbeat
     * @param commitTimeMicros the source commit time of a transaction, or a heartbeat's source
     *     time, microseconds since the epoch
     * @param resumePosition the fetcher's position right after this transaction, in its own text
     *     form (see {@link Fetcher#position()}); persisting it and handing it back to the fetcher
     *     resumes with the next transaction
     */
    void accept(
            long scn,
            ByteBuffer frames,
            int length,
            int events,
            long commitTimeMicros,
            String resumePosition)
            throws InterruptedException;

    /**
     * Accepts one part of a transaction too large to hand over whole, all but its last part: frames
     * ending with an END_OF_TRANSACTION marked {@link
     * io.changegrid.events.frame.FrameLayout#FLAG_CONTINUED}. The fetcher cuts a transaction after
     * the first event that takes a part to {@link io.changegrid.events.frame.FrameLayout#partBytes}
     * of the relay's largest entry, hands each part here as it is cut, and the last part to {@link
     * #accept} as if it were the whole transaction (with the whole transaction's event count).
     * Nothing of it is visible to readers before that last part. A fetcher that loses its source in
     * the middle calls {@link #abandonParts()} before reading the transaction again.
     *
     * @throws UnsupportedOperationException if this sink takes transactions whole only
     */
    default void acceptPart(long scn, ByteBuffer frames, int length) throws InterruptedException {
        throw new UnsupportedOperationException(
                "this sink takes whole transactions only: scn=" + scn + ", partBytes=" + length);
    }

    /**
     * Whether this sink takes parts ({@link #acceptPart}); a fetcher talking to one that does not
     * stops at a transaction larger than the relay's largest entry instead, naming it.
     */
    default boolean takesParts() {
        return false;
    }

    /** Forgets the parts handed over since the last {@link #accept}; nothing if there are none. */
    default void abandonParts() {}

    /**
     * The resume position a restarted relay would read from, as last forced to disk: the oldest
     * point the relay may still need from the source. A source that holds its log for a reader (a
     * PostgreSQL replication slot) releases only what lies before it. {@code null} while nothing
     * was forced yet; then the fetcher keeps everything from its start position.
     *
     * <p>May be called from the fetcher's thread at any time.
     */
    default String durablePosition() {
        return null;
    }
}
