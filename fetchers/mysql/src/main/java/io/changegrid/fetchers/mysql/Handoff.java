package io.changegrid.fetchers.mysql;

import java.util.concurrent.locks.LockSupport;

/**
 * A bounded queue from exactly one producer thread to exactly one consumer thread, in order, with
 * no allocation per item: a ring of slots and two counters, each written by one side only.
 *
 * <p>A side that finds the ring full (producer) or empty (consumer) spins briefly, then parks; the
 * other side unparks it. The parked thread is announced in a volatile field before the last check,
 * and the mover writes its counter before reading that field, so one of the two always sees the
 * other (every volatile access is in one total order). Waking a thread is a system call, so it is
 * done in batches: a parked producer is woken once half the ring is free, a parked consumer when an
 * item is {@code urgent} or {@link #WAKE_BATCH} items wait.
 *
 * <p>Threading: {@link #put} from one thread, {@link #take} from one other thread.
 */
final class Handoff<T> {

    /** Spins before parking: a few microseconds, less than a binlog event takes to arrive. */
    private static final int SPINS = 200;

    /** Items that wake a parked consumer even when none of them is urgent. */
    static final int WAKE_BATCH = 32;

    private final Object[] slots;
    private final int mask;
    private final int half;

    /** {@link #WAKE_BATCH}, or the capacity if smaller: a full ring always wakes the consumer. */
    private final int wakeBatch;

    /** The next item to take; written by the consumer only. */
    private volatile long head;

    /** The next slot to fill; written by the producer only. */
    private volatile long tail;

    private volatile Thread parkedConsumer;
    private volatile Thread parkedProducer;

    /**
     * @param capacity a power of two
     */
    Handoff(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(
                    "handoff capacity must be a power of two >= 2: capacity=" + capacity);
        }
        slots = new Object[capacity];
        mask = capacity - 1;
        half = capacity / 2;
        wakeBatch = Math.min(WAKE_BATCH, capacity);
    }

    int capacity() {
        return slots.length;
    }

    /** Appends an urgent item; see {@link #put(Object, boolean)}. */
    void put(T item) throws InterruptedException {
        put(item, true);
    }

    /**
     * Appends an item, waiting while the ring is full.
     *
     * @param urgent whether a parked consumer must see it now; else it is woken once {@link
     *     #WAKE_BATCH} items wait (or by a later urgent one)
     * @throws InterruptedException if interrupted while waiting; the item is then not added
     */
    void put(T item, boolean urgent) throws InterruptedException {
        long t = tail;
        if (t - head >= slots.length) {
            awaitRoom(t);
        }
        slots[(int) t & mask] = item;
        tail = t + 1;
        Thread consumer = parkedConsumer;
        if (consumer != null && (urgent || t + 1 - head >= wakeBatch)) {
            LockSupport.unpark(consumer);
        }
    }

    /**
     * Removes the oldest item, waiting while there is none.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    @SuppressWarnings("unchecked")
    T take() throws InterruptedException {
        long h = head;
        if (tail == h) {
            awaitItem(h);
        }
        int slot = (int) h & mask;
        T item = (T) slots[slot];
        slots[slot] = null;
        head = h + 1;
        Thread producer = parkedProducer;
        if (producer != null && tail - (h + 1) <= half) {
            LockSupport.unpark(producer);
        }
        return item;
    }

    private void awaitRoom(long t) throws InterruptedException {
        for (int spins = 0; spins < SPINS; spins++) {
            if (t - head < slots.length) {
                return;
            }
            Thread.onSpinWait();
        }
        // Parked until half the ring is free: one wake-up per half ring, not per item.
        parkedProducer = Thread.currentThread();
        try {
            while (t - head > half) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted waiting for room in the handoff");
                }
            }
        } finally {
            parkedProducer = null;
        }
    }

    private void awaitItem(long h) throws InterruptedException {
        for (int spins = 0; spins < SPINS; spins++) {
            if (tail != h) {
                return;
            }
            Thread.onSpinWait();
        }
        // Parked until the producer wakes it (see put); a wake-up with any item goes on.
        parkedConsumer = Thread.currentThread();
        try {
            while (tail == h) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    throw new InterruptedException(
                            "interrupted waiting for an item in the handoff");
                }
            }
        } finally {
            parkedConsumer = null;
        }
    }
}
