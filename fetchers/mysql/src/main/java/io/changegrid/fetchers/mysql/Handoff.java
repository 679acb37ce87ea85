package io.changegrid.fetchers.mysql;

import java.util.concurrent.locks.LockSupport;

/**
 * A bounded queue from exactly one producer thread to exactly one consumer thread, in order, with
 * no allocation per item: a ring of slots and two counters, each written by one side only.
 *
 * <p>A side that finds the ring full (producer) or empty (consumer) spins briefly, then parks; the
 * other side unparks it after its next move. The parked thread is announced in a volatile field
 * before the last check, and the mover writes its counter before reading that field, so one of the
 * two always sees the other (every volatile access is in one total order).
 *
 * <p>Threading: {@link #put} from one thread, {@link #take} from one other thread.
 */
final class Handoff<T> {

    /** Spins before parking: a few microseconds, less than a binlog event takes to arrive. */
    private static final int SPINS = 200;

    private final Object[] slots;
    private final int mask;

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
    }

    int capacity() {
        return slots.length;
    }

    /**
     * Appends an item, waiting while the ring is full.
     *
     * @throws InterruptedException if interrupted while waiting; the item is then not added
     */
    void put(T item) throws InterruptedException {
        long t = tail;
        if (t - head >= slots.length) {
            awaitRoom(t);
        }
        slots[(int) t & mask] = item;
        tail = t + 1;
        Thread consumer = parkedConsumer;
        if (consumer != null) {
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
        if (producer != null) {
            LockSupport.unpark(producer);
        }
        return item;
    }

    private void awaitRoom(long t) throws InterruptedException {
        for (int spins = 0; t - head >= slots.length; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            parkedProducer = Thread.currentThread();
            if (t - head >= slots.length) {
                LockSupport.park(this);
            }
            parkedProducer = null;
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted waiting for room in the handoff");
            }
        }
    }

    private void awaitItem(long h) throws InterruptedException {
        for (int spins = 0; tail == h; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            parkedConsumer = Thread.currentThread();
            if (tail == h) {
                LockSupport.park(this);
            }
            parkedConsumer = null;
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted waiting for an item in the handoff");
            }
        }
    }
}
