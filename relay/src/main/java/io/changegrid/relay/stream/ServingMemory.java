package io.changegrid.relay.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The relay-wide budget of memory that stream responses copy their entries into ({@code
 * http.servingMemory}). A request takes its bytes before it allocates and gives them back once its
 * response is written; one that cannot get them waits, parked, and is granted its bytes in arrival
 * order as others give theirs back. So however many consumers poll, and however large their {@code
 * maxBytes}, the copies in flight never add up to more than the budget.
 *
 * <p>A request for more than the whole budget (a transaction larger than it) waits until the budget
 * is entirely free and then takes all of it, so it is served alone rather than never.
 *
 * <p>Threading: thread-safe; {@link Waiter#onGranted} is called outside the lock, on the thread
 * that gave bytes back, and must only hand the work over.
 */
final class ServingMemory {

    /** A request waiting for bytes. */
    interface Waiter {
        /** The bytes asked for are now this waiter's; it must {@link #release} them. */
        void onGranted(long bytes);
    }

    private record Wait(Waiter waiter, long bytes) {}

    private final long capacity;
    private final ArrayDeque<Wait> waiting = new ArrayDeque<>();
    private long free;

    /**
     * @param capacity the budget in bytes
     */
    ServingMemory(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException(
                    "serving memory must be positive: capacity=" + capacity);
        }
        this.capacity = capacity;
        this.free = capacity;
    }

    /**
     * Takes {@code bytes} now and returns true, or queues {@code waiter} to be {@link
     * Waiter#onGranted granted} them later and returns false. Requests queued earlier go first.
     */
    synchronized boolean acquireOrWait(long bytes, Waiter waiter) {
        long counted = counted(bytes);
        if (waiting.isEmpty() && counted <= free) {
            free -= counted;
            return true;
        }
        waiting.add(new Wait(waiter, bytes));
        return false;
    }

    /** Gives back bytes taken or granted, granting waiters in turn while they fit. */
    void release(long bytes) {
        List<Wait> granted = new ArrayList<>(0);
        synchronized (this) {
            free += counted(bytes);
            while (!waiting.isEmpty() && counted(waiting.peek().bytes()) <= free) {
                Wait next = waiting.poll();
                free -= counted(next.bytes());
                granted.add(next);
            }
        }
        for (Wait wait : granted) {
            wait.waiter().onGranted(wait.bytes());
        }
    }

    /**
     * Stops waiting (the request ended otherwise); returns false if it was not waiting, when its
     * grant, if any, is on its way.
     */
    synchronized boolean cancel(Waiter waiter) {
        return waiting.removeIf(wait -> wait.waiter() == waiter);
    }

    /** The budget in bytes. */
    long capacity() {
        return capacity;
    }

    /** Bytes taken now. */
    synchronized long inUse() {
        return capacity - free;
    }

    /** Requests waiting for bytes now. */
    synchronized int waiting() {
        return waiting.size();
    }

    private long counted(long bytes) {
        return Math.min(bytes, capacity);
    }
}
