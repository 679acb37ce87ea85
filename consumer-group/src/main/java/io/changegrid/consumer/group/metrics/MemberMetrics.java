package io.changegrid.consumer.group.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.IntSupplier;

/**
 * A group member's meter registry: the JVM meters a relay exports too, the number of partitions
 * owned, and the partitions' {@link ConsumerMeters} as they come and go; {@link #scrape()} is the
 * body of the status endpoint's {@code GET /metrics}.
 *
 * <p>Threading: thread-safe (Micrometer's registry is).
 */
public final class MemberMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    /**
     * @param group the group's name, tagged on the member's own meters
     * @param partitionsOwned how many partitions the member runs now
     */
    public MemberMetrics(String group, IntSupplier partitionsOwned) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        Gauge.builder("changegrid.consumer.partitions.owned", partitionsOwned::getAsInt)
                .description("Partitions of the group this member runs")
                .tag("group", group)
                .register(registry);
    }

    /** The registry partitions register their meters in. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Every meter in Prometheus text format (version 0.0.4). */
    public String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
