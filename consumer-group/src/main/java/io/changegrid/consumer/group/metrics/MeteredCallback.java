package io.changegrid.consumer.group.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * A partition callback that exports meters of its own (the JDBC applier's rows applied and commits)
 * beside the consumer's. The member registers them when the partition's consumer starts and removes
 * the returned meters when it stops, so a partition that moves leaves no stale series.
 *
 * <p>Meters should read counters the callback keeps anyway ({@code FunctionCounter}, {@code
 * Gauge}): they are read on a scrape thread, so what they read must be safe to read from another
 * thread (a volatile field, an atomic).
 */
public interface MeteredCallback {

    /**
     * Registers this callback's meters.
     *
     * @param registry the member's registry
     * @param tags the partition's tags ({@code group}, {@code partition}), to put on every meter
     * @return the meters registered, removed again when the partition's consumer stops
     */
    List<Meter> registerMeters(MeterRegistry registry, Tags tags);
}
