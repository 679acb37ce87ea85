package io.changegrid.console.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.console.grid.GroupSnapshot;
import io.changegrid.console.sample.RelayProbe.RelayReading;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chart series the console computes from its own samples: per relay, events/s and bytes/s from
 * the differences of its published counters; per consumer group, the largest partition lag and each
 * partition's lag; per applier (a partition whose owner applies into a target), rows/s and
 * commits/s from its counters. Series of relays, groups and partitions that are gone are dropped.
 *
 * <p>Threading: not thread-safe; the sampler's thread only.
 */
final class Charts {

    private final long windowMillis;
    private final Map<String, CounterRate> eventRates = new HashMap<>();
    private final Map<String, CounterRate> byteRates = new HashMap<>();
    private final Map<String, Series> eventSeries = new HashMap<>();
    private final Map<String, Series> byteSeries = new HashMap<>();
    private final Map<String, Series> groupLag = new HashMap<>();
    private final Map<String, Series> partitionLag = new HashMap<>();
    private final Map<String, CounterRate> rowRates = new HashMap<>();
    private final Map<String, CounterRate> commitRates = new HashMap<>();
    private final Map<String, Series> rowSeries = new HashMap<>();
    private final Map<String, Series> commitSeries = new HashMap<>();

    Charts(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    void record(long now, Map<String, RelayReading> relays, List<GroupSnapshot> groups) {
        retain(relays.keySet(), eventRates, byteRates, eventSeries, byteSeries);
        relays.forEach(
                (endpoint, reading) -> {
                    if (!Double.isNaN(reading.eventsPublished())) {
                        add(
                                eventSeries,
                                endpoint,
                                now,
                                rate(eventRates, endpoint, now, reading.eventsPublished()));
                    }
                    if (!Double.isNaN(reading.bytesPublished())) {
                        add(
                                byteSeries,
                                endpoint,
                                now,
                                rate(byteRates, endpoint, now, reading.bytesPublished()));
                    }
                });
        Set<String> names = new HashSet<>();
        for (GroupSnapshot group : groups) {
            names.add(group.group());
            if (group.report() == null) {
                continue;
            }
            long largest = -1;
            for (JsonNode partition : group.report().path("partitionStates")) {
                long lag = partition.path("lagMillis").asLong(-1);
                String key = group.group() + "/" + partition.path("partition").asInt();
                names.add(key);
                if (lag >= 0) {
                    add(partitionLag, key, now, lag);
                    largest = Math.max(largest, lag);
                }
                JsonNode applier = partition.path("applier");
                if (applier.isObject()) {
                    // The owner is part of the key: a partition that moves starts its rates over.
                    String at = key + "@" + partition.path("owner").asText();
                    names.add(at);
                    double rows = applier.path("rowsApplied").asDouble();
                    double commits = applier.path("commits").asDouble();
                    add(rowSeries, at, now, rate(rowRates, at, now, rows));
                    add(commitSeries, at, now, rate(commitRates, at, now, commits));
                }
            }
            if (largest >= 0) {
                add(groupLag, group.group(), now, largest);
            }
        }
        retain(names, groupLag, partitionLag, rowRates, commitRates, rowSeries, commitSeries);
    }

    /** Rows/s of the applier of {@code partition} on {@code owner}. */
    List<double[]> rowsPerSecond(String group, int partition, String owner) {
        return points(rowSeries, group + "/" + partition + "@" + owner);
    }

    /** Commits/s of the applier of {@code partition} on {@code owner}. */
    List<double[]> commitsPerSecond(String group, int partition, String owner) {
        return points(commitSeries, group + "/" + partition + "@" + owner);
    }

    List<double[]> eventsPerSecond(String endpoint) {
        return points(eventSeries, endpoint);
    }

    List<double[]> bytesPerSecond(String endpoint) {
        return points(byteSeries, endpoint);
    }

    List<double[]> groupLag(String group) {
        return points(groupLag, group);
    }

    List<double[]> partitionLag(String group, int partition) {
        return points(partitionLag, group + "/" + partition);
    }

    private static double rate(Map<String, CounterRate> rates, String key, long now, double value) {
        return rates.computeIfAbsent(key, k -> new CounterRate()).next(now, value);
    }

    private void add(Map<String, Series> series, String key, long now, double value) {
        if (!Double.isNaN(value)) {
            series.computeIfAbsent(key, k -> new Series(windowMillis)).add(now, value);
        }
    }

    private static List<double[]> points(Map<String, Series> series, String key) {
        Series found = series.get(key);
        return found == null ? List.of() : found.points();
    }

    @SafeVarargs
    private static void retain(Set<String> keys, Map<String, ?>... maps) {
        for (Map<String, ?> map : maps) {
            map.keySet().retainAll(keys);
        }
    }
}
