package io.changegrid.relay;

import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.publish.Publisher;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;

/**
 * The relay's gauges on {@code /metrics}: the JVM's, the event buffer's and the fetch lag (the HTTP
 * server registers its own). Names are part of the operations contract: the Grafana dashboard
 * queries them ({@code DashboardMetricsIT} in appliers).
 */
final class RelayGauges {

    private RelayGauges() {}

    /**
     * @param gc bound here, closed by the relay when it stops (it holds GC notification listeners)
     */
    static void register(
            MeterRegistry metrics, EventBuffer buffer, Publisher publisher, JvmGcMetrics gc) {
        new JvmMemoryMetrics().bindTo(metrics);
        new JvmThreadMetrics().bindTo(metrics);
        new ProcessorMetrics().bindTo(metrics);
        gc.bindTo(metrics);
        Gauge.builder("changegrid.relay.buffer.bytes.used", buffer, EventBuffer::bytesUsed)
                .baseUnit("bytes")
                .register(metrics);
        Gauge.builder("changegrid.relay.buffer.capacity", buffer, EventBuffer::capacity)
                .baseUnit("bytes")
                .description("The event buffer's size")
                .register(metrics);
        Gauge.builder("changegrid.relay.buffer.fill", buffer, RelayGauges::fill)
                .baseUnit("ratio")
                .description("The share of the event buffer in use, 0 to 1")
                .register(metrics);
        Gauge.builder("changegrid.relay.buffer.scn.newest", buffer, EventBuffer::newestScn)
                .register(metrics);
        Gauge.builder("changegrid.relay.buffer.scn.oldest", buffer, EventBuffer::oldestScn)
                .register(metrics);
        Gauge.builder(
                        "changegrid.relay.buffer.transactions.evicted",
                        buffer,
                        EventBuffer::transactionsEvicted)
                .register(metrics);
        Gauge.builder("changegrid.relay.fetch.lag", publisher, Publisher::lagMillis)
                .baseUnit("milliseconds")
                .register(metrics);
    }

    private static double fill(EventBuffer buffer) {
        long capacity = buffer.capacity();
        return capacity <= 0 ? 0 : (double) buffer.bytesUsed() / capacity;
    }
}
