package io.changegrid.relay.config;

import io.changegrid.config.Config;

/**
 * What the relay's HTTP serving may take, whatever its clients ask for: the memory its stream
 * responses hold at once, its open connections and its parked polls (docs/relay.md, "Limits").
 *
 * @param servingMemoryBytes memory for stream responses' copies of the buffer, all together
 * @param maxConnections open connections served; beyond, requests get 503
 * @param maxParkedPolls stream requests waiting parked; beyond, 503
 */
public record ServingLimits(long servingMemoryBytes, int maxConnections, int maxParkedPolls) {

    /** The validated limits; {@code http.servingMemory: 0} is a quarter of the maximum heap. */
    public static ServingLimits from(Config config) {
        long memory = config.get(RelaySettings.HTTP_SERVING_MEMORY);
        return new ServingLimits(
                memory == 0 ? defaultServingMemory() : memory,
                config.get(RelaySettings.HTTP_MAX_CONNECTIONS),
                config.get(RelaySettings.HTTP_MAX_PARKED_POLLS));
    }

    /** The defaults of every key: what a relay configured with none of them gets. */
    public static ServingLimits defaults() {
        return new ServingLimits(
                defaultServingMemory(),
                RelaySettings.HTTP_MAX_CONNECTIONS.defaultValue(),
                RelaySettings.HTTP_MAX_PARKED_POLLS.defaultValue());
    }

    /**
     * A quarter of the heap: as much again as the fetcher may stage (a transaction is capped at a
     * quarter of the heap too), leaving half for everything else.
     */
    private static long defaultServingMemory() {
        return Runtime.getRuntime().maxMemory() / 4;
    }
}
