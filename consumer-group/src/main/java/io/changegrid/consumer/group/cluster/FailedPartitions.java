package io.changegrid.consumer.group.cluster;

import io.changegrid.consumer.config.Backoff;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Brings partitions back out of Helix's ERROR state. A partition whose transition threw (its epoch
 * claim timed out, the member was leaving) is ERROR on that member, and Helix neither retries it
 * nor moves it while the ideal state still places it there: it would stay unowned until the member
 * restarts. The leading member asks Helix to reset it (ERROR → OFFLINE, after which the controller
 * drives it to LEADER again), with an exponential backoff per partition so that a partition failing
 * again and again is retried ever more slowly, not every second.
 *
 * <p>A partition's backoff is forgotten once it has not been seen in ERROR for the longest wait.
 *
 * <p>Threading: not thread-safe; the placement keeper's thread only.
 */
final class FailedPartitions {

    /** Asks Helix to reset one partition on one member. */
    @FunctionalInterface
    interface Reset {
        void reset(String instance, int partition);
    }

    static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

    private final Backoff backoff;
    private final LongSupplier nanoClock;
    private final Map<Key, Attempts> seen = new HashMap<>();

    FailedPartitions(Backoff backoff, LongSupplier nanoClock) {
        this.backoff = backoff;
        this.nanoClock = nanoClock;
    }

    private record Key(String instance, int partition) {}

    /** Resets so far, when the next is due, and when the partition was last seen failed. */
    private static final class Attempts {
        int resets;
        long dueNanos;
        long lastSeenNanos;
    }

    /**
     * Resets the failed partitions whose wait is over.
     *
     * @param failed each live member's partitions in ERROR now
     * @return the number of resets asked for
     */
    int resetDue(Map<String, List<Integer>> failed, Reset reset) {
        long now = nanoClock.getAsLong();
        int resets = 0;
        for (Map.Entry<String, List<Integer>> member : failed.entrySet()) {
            for (int partition : member.getValue()) {
                Attempts attempts =
                        seen.computeIfAbsent(
                                new Key(member.getKey(), partition),
                                key -> {
                                    Attempts first = new Attempts();
                                    first.dueNanos = now + backoff.delayNanos(1);
                                    return first;
                                });
                attempts.lastSeenNanos = now;
                if (now - attempts.dueNanos >= 0) {
                    reset.reset(member.getKey(), partition);
                    attempts.resets++;
                    attempts.dueNanos = now + backoff.delayNanos(attempts.resets + 1);
                    resets++;
                }
            }
        }
        long forget = backoff.max().toNanos();
        for (Iterator<Attempts> it = seen.values().iterator(); it.hasNext(); ) {
            if (now - it.next().lastSeenNanos > forget) {
                it.remove();
            }
        }
        return resets;
    }

    /** How many resets of the partition on the member were asked for so far (0 if none known). */
    int resets(String instance, int partition) {
        Attempts attempts = seen.get(new Key(instance, partition));
        return attempts == null ? 0 : attempts.resets;
    }
}
