package io.changegrid.bench.consumer;

/**
 * What a run's consumers did together: from the first consumer's first event to the last consumer's
 * last.
 *
 * @param events row events delivered to callbacks, all consumers together
 * @param firstNanos {@link System#nanoTime()} of the first event (CLOCK_MONOTONIC: comparable with
 *     the harness's and the relays' times on Linux)
 * @param lastNanos of the last event
 * @param cpuSeconds CPU the consumers used within their own first-to-last windows, together
 * @param heapMax the most heap any one consumer used
 * @param slowest the longest first-to-last window of one consumer, in seconds
 */
public record Delivery(
        long events,
        long firstNanos,
        long lastNanos,
        double cpuSeconds,
        long heapMax,
        double slowest) {

    public double seconds() {
        return (lastNanos - firstNanos) / 1e9;
    }
}
