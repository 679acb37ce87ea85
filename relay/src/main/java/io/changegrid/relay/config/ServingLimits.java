package io.changegrid.relay.config;

import io.changegrid.config.Config;
import io.changegrid.relay.buffer.DirectMemoryLimit;

/**
 * What the relay's HTTP serving may take, whatever its clients ask for: the memory its stream
 * responses hold at once, its open connections and its parked polls (docs/relay.md, "Limits").
 *
 * @param servingMemoryBytes memory for stream responses' copies of the buffer, all together
 * @param maxConnections open connections served; beyond, requests get 503
 * @param maxParkedPolls stream requests waiting parked; beyond, 503
 * @param zeroCopySegments segments responses may be sent from in place at once, each possibly
 *     costing one more segment of direct memory (0: every response is copied)
 * @param edgeLingerNanos how long a request that would get a small response may wait for more, from
 *     its arrival ({@code http.edgeLinger}; 0: never)
 */
public record ServingLimits(
        long servingMemoryBytes,
        int maxConnections,
        int maxParkedPolls,
        int zeroCopySegments,
        long edgeLingerNanos) {

    /** Limits with the default {@code http.edgeLinger}. */
    public ServingLimits(
            long servingMemoryBytes, int maxConnections, int maxParkedPolls, int zeroCopySegments) {
        this(
                servingMemoryBytes,
                maxConnections,
                maxParkedPolls,
                zeroCopySegments,
                RelaySettings.HTTP_EDGE_LINGER.defaultValue().toNanos());
    }

    /** Limits with the default {@code http.zeroCopySegments} and {@code http.edgeLinger}. */
    public ServingLimits(long servingMemoryBytes, int maxConnections, int maxParkedPolls) {
        this(
                servingMemoryBytes,
                maxConnections,
                maxParkedPolls,
                RelaySettings.HTTP_ZERO_COPY_SEGMENTS.defaultValue());
    }

    private static final long MIN_SERVING_MEMORY = 64L << 10;

    /** The validated limits; {@code http.servingMemory: 0} is the default described there. */
    public static ServingLimits from(Config config) {
        long memory = config.get(RelaySettings.HTTP_SERVING_MEMORY);
        boolean direct =
                config.get(RelaySettings.BUFFER_STORAGE) == RelaySettings.BufferStorage.DIRECT;
        int zeroCopySegments = config.get(RelaySettings.HTTP_ZERO_COPY_SEGMENTS);
        // The buffer, and the spares that may replace segments being sent in place.
        long bufferDirect =
                direct
                        ? config.get(RelaySettings.BUFFER_CAPACITY)
                                + zeroCopySegments * config.get(RelaySettings.BUFFER_SEGMENT)
                        : 0;
        return new ServingLimits(
                memory == 0 ? defaultServingMemory(bufferDirect) : memory,
                config.get(RelaySettings.HTTP_MAX_CONNECTIONS),
                config.get(RelaySettings.HTTP_MAX_PARKED_POLLS),
                zeroCopySegments,
                config.get(RelaySettings.HTTP_EDGE_LINGER).toNanos());
    }

    /** The defaults of every key: what a relay configured with none of them gets. */
    public static ServingLimits defaults() {
        return new ServingLimits(
                defaultServingMemory(0),
                RelaySettings.HTTP_MAX_CONNECTIONS.defaultValue(),
                RelaySettings.HTTP_MAX_PARKED_POLLS.defaultValue(),
                RelaySettings.HTTP_ZERO_COPY_SEGMENTS.defaultValue(),
                RelaySettings.HTTP_EDGE_LINGER.defaultValue().toNanos());
    }

    /**
     * A quarter of the heap (as much as the fetcher may stage: a transaction is capped at a quarter
     * of the heap too), and at most half the direct memory the event buffer leaves: the copies are
     * direct buffers, and running out of direct memory would end the process.
     */
    private static long defaultServingMemory(long bufferDirectBytes) {
        long heapQuarter = Runtime.getRuntime().maxMemory() / 4;
        long directLeft = DirectMemoryLimit.maxBytes() - bufferDirectBytes;
        return Math.max(MIN_SERVING_MEMORY, Math.min(heapQuarter, directLeft / 2));
    }
}
