package io.changegrid.relay.stream;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many {@code /v1/stream} requests wait parked (for data or for serving memory), against a
 * limit: each costs a listener call per append and a wake-up on Jetty's pool, so a relay refuses a
 * request beyond the limit (503) rather than letting their number grow with the clients.
 *
 * <p>Thread-safe.
 */
final class ParkedPolls {

    private final int limit;
    private final AtomicInteger parked = new AtomicInteger();

    ParkedPolls(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "parked poll limit must be positive: limit=" + limit);
        }
        this.limit = limit;
    }

    /** Counts one more parked request, or returns false at the limit. */
    boolean tryPark() {
        while (true) {
            int now = parked.get();
            if (now >= limit) {
                return false;
            }
            if (parked.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A parked request ended. */
    void unpark() {
        parked.decrementAndGet();
    }

    int limit() {
        return limit;
    }

    /** Requests parked now. */
    int count() {
        return parked.get();
    }
}
