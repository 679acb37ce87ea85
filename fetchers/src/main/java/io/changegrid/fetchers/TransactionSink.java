package io.changegrid.fetchers;

import java.nio.ByteBuffer;

/**
 * Where a fetcher hands what it read: whole transactions (their frames back to back, an
 * END_OF_TRANSACTION frame last) and heartbeats (one HEARTBEAT frame), in timeline order.
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
     * @param resumePosition the fetcher's position right after this transaction, in its own text
     *     form; persisting it and handing it back to the fetcher resumes with the next transaction
     */
    void accept(long scn, ByteBuffer frames, int length, String resumePosition)
            throws InterruptedException;
}
