package io.changegrid.relay.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.relay.buffer.DirectMemoryLimit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServingLimitsTest {

    private static Config settings(Map<String, String> overrides) {
        Map<String, String> all = new HashMap<>(overrides);
        all.put("source.host", "db");
        all.put("source.user", "changegrid");
        return RelaySettings.load(Map.of(), all);
    }

    @Test
    void shouldTakeTheConfiguredValuesWhenSet() {
        ServingLimits limits =
                ServingLimits.from(
                        settings(
                                Map.of(
                                        "http.servingMemory", "8MiB",
                                        "http.maxConnections", "7",
                                        "http.maxParkedPolls", "5",
                                        "http.zeroCopySegments", "3")));

        assertThat(limits).isEqualTo(new ServingLimits(8L << 20, 7, 5, 3));
    }

    @Test
    void shouldFitTheHeapAndTheDirectMemoryLeftWhenServingMemoryIsZero() {
        long capacity = 8L << 20;
        ServingLimits limits =
                ServingLimits.from(settings(Map.of("buffer.capacity", capacity + "")));

        assertThat(limits.servingMemoryBytes())
                .isPositive()
                .isLessThanOrEqualTo(Runtime.getRuntime().maxMemory() / 4)
                .isLessThanOrEqualTo((DirectMemoryLimit.maxBytes() - capacity) / 2);
    }

    @Test
    void shouldCountTheSpareSegmentsOfZeroCopyWhenDefaultingServingMemory() {
        long capacity = 8L << 20;
        long segment = 1L << 20;
        ServingLimits limits =
                ServingLimits.from(
                        settings(
                                Map.of(
                                        "buffer.capacity", capacity + "",
                                        "buffer.segmentSize", segment + "",
                                        "http.zeroCopySegments", "4")));

        assertThat(limits.zeroCopySegments()).isEqualTo(4);
        assertThat(limits.servingMemoryBytes())
                .isLessThanOrEqualTo((DirectMemoryLimit.maxBytes() - capacity - 4 * segment) / 2);
    }
}
