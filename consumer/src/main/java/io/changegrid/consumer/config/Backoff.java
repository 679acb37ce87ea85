package io.changegrid.consumer.config;

import java.time.Duration;

/**
 * Exponential backoff: the first wait is {@code initial}, each further one twice the previous,
 * never more than {@code max}.
 *
 * @param initial the first wait, positive
 * @param max the longest wait, at least {@code initial}
 */
public record Backoff(Duration initial, Duration max) {

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException(
                    "backoff needs 0 < initial <= max: initial=" + initial + ", max=" + max);
        }
    }

    /** The wait before attempt {@code attempt} (1 for the first retry), in nanoseconds. */
    public long delayNanos(int attempt) {
        long initialNanos = initial.toNanos();
        long maxNanos = max.toNanos();
        int doublings = Math.max(0, Math.min(attempt - 1, 62));
        long delay = initialNanos;
        for (int i = 0; i < doublings && delay < maxNanos; i++) {
            delay *= 2;
        }
        return Math.min(delay, maxNanos);
    }
}
