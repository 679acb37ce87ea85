package io.changegrid.consumer.buffer;

import io.changegrid.protocol.SnapshotCursor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The consumer buffer, a one-writer one-reader ring of relay response bodies: {@code capacity}
 * bytes holding <em>entries</em>, each one relay response body (whole transactions and heartbeats,
 * frames back to back) with the checkpoint the relay gave for it.
 *
 * <pre>
 *   releasePosition          read by the dispatcher            writePosition
 *        |  [entry n][entry n+1][pad][entry n+2]...                 |   free ...
 * </pre>
 *
 * <ul>
 *   <li>The writer {@link #claim claims} room for a whole body, reads the body straight into {@link
 *       #bytes()} at the returned offset (the only copy), and {@link #publish publishes} it. An
 *       entry is always contiguous, so frames never wrap: when the tail of the ring is too short
 *       the entry starts at offset 0 and the tail counts as used until the entry is released.
 *   <li>The reader {@link #await awaits} entries by sequence number, reads their frames in place,
 *       and {@link #release releases} entries only when the callback processed them and the
 *       checkpoint was saved; until then it may read them again (a RETRY).
 *   <li>Back pressure: a claim waits while the buffer is full. Expected conditions are return codes
 *       ({@link #CLOSED}, {@link #TOO_LARGE}, {@link #NOTHING_YET}, {@link #FINISHED}).
 * </ul>
 *
 * <p>Transactions in parts (docs/consumer.md, "Transactions in parts"): an entry may end inside a
 * transaction, and the next entry goes on with it; each entry records how many parts of its first
 * transaction its request said it held ({@link #entryParts}, 0 when it starts a transaction over).
 * The reader may release the entries of a transaction's delivered parts before its end, and so can
 * no longer read them again: to deliver it again it asks the writer to {@link #requestRestart fetch
 * again} from the checkpoint, and skips the entries of earlier {@link #entryEpoch epochs}.
 *
 * <p>Threading: exactly one writer thread (the puller) and one reader thread (the dispatcher);
 * {@link #close}, {@link #wakeReader} and the getters from any thread. The lock is taken once per
 * entry, never per event.
 */
public final class ConsumerBuffer {

    /** {@link #await}: the entry is published. */
    public static final int AVAILABLE = 1;

    /** {@link #await}: not published before the timeout (or the reader was woken). */
    public static final int NOTHING_YET = 0;

    /** {@link #await}: the writer finished and the entry will never come. */
    public static final int FINISHED = -1;

    /** {@link #claim}: the buffer was closed. */
    public static final int CLOSED = -1;

    /** {@link #claim}: the body is larger than the whole buffer. */
    public static final int TOO_LARGE = -2;

    private final int capacity;
    private final byte[] bytes;
    private final ByteBuffer view;
    private final int entryMask;
    private final long[] entryStart;
    private final int[] entryLength;
    private final long[] entryLastScn;
    private final int[] entrySource;
    private final String[] entrySnapshot;
    private final int[] entryParts;
    private final int[] entryEpoch;
    private volatile Restart restart;
    private int restartEpoch; // reader thread only
    private final SnapshotCursor[] entryBegins;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();
    private final Condition released = lock.newCondition();

    private long writePosition; // guarded by lock
    private long releasePosition; // guarded by lock
    private long releasedCount; // guarded by lock
    private long readerWakeups; // guarded by lock
    private long claimStart = -1; // writer thread only
    private volatile long publishedCount;
    private volatile long usedBytes;
    private volatile boolean finished;
    private volatile boolean closed;
    private volatile boolean writerWaiting;

    /**
     * A buffer of {@code capacity} bytes holding at most {@code maxEntries} entries.
     *
     * @param maxEntries rounded up to a power of two
     */
    public ConsumerBuffer(int capacity, int maxEntries) {
        if (capacity < 1 || maxEntries < 1) {
            throw new IllegalArgumentException(
                    "buffer needs room: capacity=" + capacity + ", maxEntries=" + maxEntries);
        }
        this.capacity = capacity;
        this.bytes = new byte[capacity];
        this.view = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int slots = Integer.highestOneBit(Math.max(1, maxEntries - 1)) << 1;
        this.entryMask = slots - 1;
        this.entryStart = new long[slots];
        this.entryLength = new int[slots];
        this.entryLastScn = new long[slots];
        this.entrySource = new int[slots];
        this.entrySnapshot = new String[slots];
        this.entryParts = new int[slots];
        this.entryEpoch = new int[slots];
        this.entryBegins = new SnapshotCursor[slots];
    }

    public int capacity() {
        return capacity;
    }

    /** The ring's bytes, for the writer to read a body into at a claimed offset. */
    public byte[] bytes() {
        return bytes;
    }

    /** A little-endian view of the whole ring, for the reader's frame flyweights. */
    public ByteBuffer view() {
        return view;
    }

    // ---- writer ----

    /**
     * Claims {@code length} contiguous bytes for the next entry, waiting while the buffer is full.
     * Nothing is visible to the reader until {@link #publish}; a claim that is not published is
     * simply replaced by the next one.
     *
     * @return the offset in {@link #bytes()} to write at, {@link #TOO_LARGE} if {@code length}
     *     exceeds the capacity, or {@link #CLOSED}
     */
    public int claim(int length) throws InterruptedException {
        if (length > capacity) {
            return TOO_LARGE;
        }
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    return CLOSED;
                }
                long start = writePosition;
                int offset = (int) (start % capacity);
                if (offset + length > capacity) {
                    start += capacity - offset; // the tail is too short: start over at offset 0
                    if (publishedCount == releasedCount) {
                        releasePosition = start; // empty: nothing to pad
                        writePosition = start;
                    }
                }
                if (start + length - releasePosition <= capacity
                        && publishedCount - releasedCount <= entryMask) {
                    claimStart = start;
                    return (int) (start % capacity);
                }
                waitForRelease();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Publishes the claimed entry to the reader.
     *
     * @param length the bytes written at the claimed offset, at most the claimed length
     * @param lastScn the checkpoint after the entry (the relay's {@code X-Changegrid-Last-Scn})
     * @param source which relay the entry came from, so its frames are decoded with that relay's
     *     schemas
     */
    public void publish(int length, long lastScn, int source) {
        publish(length, lastScn, source, null);
    }

    /**
     * Publishes the claimed entry to the reader, with the snapshot cursor after it.
     *
     * @param snapshot the snapshot cursor after the entry (docs/bootstrap.md): the cursor its
     *     chunk, if any, moved to; null when no snapshot is in progress after it
     * @see #publish(int, long, int)
     */
    public void publish(int length, long lastScn, int source, String snapshot) {
        publish(length, lastScn, source, snapshot, 0, 0, null);
    }

    /**
     * Publishes the claimed entry to the reader, with what it continues and the table whose copy it
     * begins.
     *
     * @param parts the parts of the transaction after the checkpoint before the entry that its
     *     request said it held ({@code parts}), 0 when the entry starts from a transaction's start
     * @param epoch the {@link Restart#epoch()} the entry was fetched in, 0 before any restart
     * @param begins the cursor at the start of the table whose copy this entry begins ({@link
     *     SnapshotCursor#begunTable}), or null: the reader signals it before the entry's first
     *     transaction
     * @see #publish(int, long, int, String)
     */
    public void publish(
            int length,
            long lastScn,
            int source,
            String snapshot,
            int parts,
            int epoch,
            SnapshotCursor begins) {
        if (claimStart < 0) {
            throw new IllegalStateException("publish without a claim: length=" + length);
        }
        lock.lock();
        try {
            long sequence = publishedCount;
            int slot = (int) (sequence & entryMask);
            entryStart[slot] = claimStart;
            entryLength[slot] = length;
            entryLastScn[slot] = lastScn;
            entrySource[slot] = source;
            entrySnapshot[slot] = snapshot;
            entryParts[slot] = parts;
            entryEpoch[slot] = epoch;
            entryBegins[slot] = begins;
            writePosition = claimStart + length;
            usedBytes = writePosition - releasePosition;
            claimStart = -1;
            publishedCount = sequence + 1;
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The writer publishes no more entries: the reader gets {@link #FINISHED} after the last. */
    public void finish() {
        lock.lock();
        try {
            finished = true;
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The reader's latest {@link #requestRestart}, taken once: the writer fetches from its
     * checkpoint from now on and tags what it publishes with its epoch.
     *
     * @return the restart, or null if none was asked since the last call
     */
    public Restart takeRestart() {
        Restart asked = restart;
        if (asked == null) {
            return null;
        }
        lock.lock();
        try {
            asked = restart;
            restart = null;
            return asked;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the writer is waiting for the reader to release room. */
    public boolean isWriterWaiting() {
        return writerWaiting;
    }

    private void waitForRelease() throws InterruptedException {
        writerWaiting = true;
        try {
            released.await();
        } finally {
            writerWaiting = false;
        }
    }

    // ---- reader ----

    /**
     * Waits until entry {@code sequence} is published.
     *
     * @return {@link #AVAILABLE}, {@link #NOTHING_YET} after the timeout or a {@link #wakeReader},
     *     or {@link #FINISHED}
     */
    public int await(long sequence, long timeoutNanos) throws InterruptedException {
        if (sequence < publishedCount) {
            return AVAILABLE;
        }
        lock.lock();
        try {
            long wakeups = readerWakeups;
            long remaining = timeoutNanos;
            while (sequence >= publishedCount) {
                if (finished) {
                    return FINISHED;
                }
                if (remaining <= 0 || wakeups != readerWakeups) {
                    return NOTHING_YET;
                }
                remaining = published.awaitNanos(remaining);
            }
            return AVAILABLE;
        } finally {
            lock.unlock();
        }
    }

    /** Makes a waiting {@link #await} return {@link #NOTHING_YET} now, e.g. to stop the reader. */
    public void wakeReader() {
        lock.lock();
        try {
            readerWakeups++;
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The offset in {@link #view()} of a published, unreleased entry. */
    public int entryOffset(long sequence) {
        return (int) (entryStart[(int) (sequence & entryMask)] % capacity);
    }

    /** The length in bytes of a published, unreleased entry (0 for a checkpoint-only entry). */
    public int entryLength(long sequence) {
        return entryLength[(int) (sequence & entryMask)];
    }

    /** The checkpoint after a published, unreleased entry. */
    public long entryLastScn(long sequence) {
        return entryLastScn[(int) (sequence & entryMask)];
    }

    /** The relay a published, unreleased entry came from. */
    public int entrySource(long sequence) {
        return entrySource[(int) (sequence & entryMask)];
    }

    /** The table whose copy a published, unreleased entry begins; null if none. */
    public SnapshotCursor entryBegins(long sequence) {
        return entryBegins[(int) (sequence & entryMask)];
    }

    /** The snapshot cursor after a published, unreleased entry; null outside a snapshot. */
    public String entrySnapshot(long sequence) {
        return entrySnapshot[(int) (sequence & entryMask)];
    }

    /** The parts its request said it held ({@link #publish(int, long, int, String, int, int)}). */
    public int entryParts(long sequence) {
        return entryParts[(int) (sequence & entryMask)];
    }

    /** The restart epoch a published, unreleased entry was fetched in. */
    public int entryEpoch(long sequence) {
        return entryEpoch[(int) (sequence & entryMask)];
    }

    /**
     * Asks the writer to fetch everything after {@code scn} (and {@code snapshot}) again: the
     * reader could not read it again from the buffer because it released part of it. Entries
     * published with an earlier epoch are to be skipped.
     *
     * @return the new epoch: entries fetched after the restart carry it
     */
    public int requestRestart(long scn, String snapshot) {
        lock.lock();
        try {
            restartEpoch++;
            restart = new Restart(scn, snapshot, restartEpoch);
            return restartEpoch;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A reader's request to fetch again from a checkpoint.
     *
     * @param scn the checkpoint to fetch after
     * @param snapshot the snapshot cursor with it, or null
     * @param epoch what the entries fetched from it carry
     */
    public record Restart(long scn, String snapshot, int epoch) {}

    /**
     * Frees every entry before {@code sequence}: the callback processed them and they are saved.
     */
    public void release(long sequence) {
        lock.lock();
        try {
            if (sequence <= releasedCount) {
                return;
            }
            if (sequence > publishedCount) {
                throw new IllegalArgumentException(
                        "release beyond the published entries: sequence="
                                + sequence
                                + ", published="
                                + publishedCount);
            }
            int last = (int) ((sequence - 1) & entryMask);
            releasePosition = entryStart[last] + entryLength[last];
            releasedCount = sequence;
            usedBytes = writePosition - releasePosition;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- either side ----

    /**
     * Stops both sides: waiting and later claims return {@link #CLOSED}, the reader gets {@link
     * #FINISHED} after what was published.
     */
    public void close() {
        lock.lock();
        try {
            closed = true;
            finished = true;
            released.signalAll();
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Bytes held by unreleased entries (and the padding between them). */
    public long usedBytes() {
        return usedBytes;
    }

    /** Entries published so far. */
    public long publishedCount() {
        return publishedCount;
    }

    @Override
    public String toString() {
        return "ConsumerBuffer[capacity="
                + capacity
                + ", used="
                + usedBytes
                + ", entries="
                + publishedCount
                + "]";
    }
}
