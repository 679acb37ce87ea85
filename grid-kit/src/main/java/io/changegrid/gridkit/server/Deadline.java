package io.changegrid.gridkit.server;

import java.time.Duration;

/**
 * A point in time by which a wait must end. Polling loops ask it whether to give up instead of
 * counting iterations, so a slow machine changes how often they poll, not how long they wait.
 */
record Deadline(long endNanos, Duration budget) {

    static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos(), budget);
    }

    boolean expired() {
        return System.nanoTime() - endNanos >= 0;
    }

    /** Time left, never negative. */
    Duration remaining() {
        return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
    }
}
