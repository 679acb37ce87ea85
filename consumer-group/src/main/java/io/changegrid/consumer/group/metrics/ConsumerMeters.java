package io.changegrid.consumer.group.metrics;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerStatus;
import io.changegrid.consumer.api.ConsumerCallback;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one partition's running consumer (and of its callback, if {@link MeteredCallback}),
 * tagged {@code group} and {@code partition}, registered when the consumer starts and removed by
 * {@link #close()} when it stops. Each reads {@link Consumer#status()} when scraped: the dispatcher
 * and buffer already count all of it, so delivery gains no work. Counters start again from zero
 * when a partition's consumer restarts (a new relay, a checkpoint reset, a move); Prometheus's
 * {@code rate()} treats that as a counter reset.
 *
 * <p>Threading: registration and {@link #close()} on the partition runner's thread; the meters are
 * read on the scrape thread.
 */
public final class ConsumerMeters implements AutoCloseable {

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    private ConsumerMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Registers the meters of {@code consumer} (and {@code callback}) for one partition. */
    public static ConsumerMeters register(
            MeterRegistry registry,
            String group,
            int partition,
            Consumer consumer,
            ConsumerCallback callback) {
        ConsumerMeters partitionMeters = new ConsumerMeters(registry);
        Tags tags = Tags.of("group", group, "partition", Integer.toString(partition));
        partitionMeters.counter(
                "changegrid.consumer.events.delivered",
                "Events of whole transactions handed to the callback, re-deliveries included",
                consumer,
                tags,
                s -> s.eventsDelivered());
        partitionMeters.counter(
                "changegrid.consumer.transactions.delivered",
                "Transactions handed to the callback, re-deliveries included",
                consumer,
                tags,
                s -> s.transactionsDelivered());
        partitionMeters.counter(
                "changegrid.consumer.batches",
                "Batches completed and checkpointed",
                consumer,
                tags,
                s -> s.batches());
        partitionMeters.counter(
                "changegrid.consumer.callback.retries",
                "RETRY results of the callback",
                consumer,
                tags,
                s -> s.retries());
        partitionMeters.counter(
                "changegrid.consumer.pulled.bytes",
                "Response body bytes pulled from relays into the consumer buffer",
                consumer,
                tags,
                s -> s.bytesPulled());
        partitionMeters.counter(
                "changegrid.consumer.delivered.bytes",
                "Frame bytes of the events handed to the callback, re-deliveries included",
                consumer,
                tags,
                s -> s.bytesDelivered());
        partitionMeters.counter(
                "changegrid.consumer.callback.seconds",
                "Time spent in the callback's methods (batches and whole transactions)",
                consumer,
                tags,
                s -> s.callbackNanos() / 1e9);
        partitionMeters.gauge(
                "changegrid.consumer.buffer.used",
                "bytes",
                "Bytes of the consumer buffer in use",
                consumer,
                tags,
                s -> s.bufferUsedBytes());
        partitionMeters.gauge(
                "changegrid.consumer.buffer.capacity",
                "bytes",
                "The consumer buffer's size",
                consumer,
                tags,
                s -> s.bufferCapacity());
        partitionMeters.gauge(
                "changegrid.consumer.checkpoint.scn",
                null,
                "The last checkpoint saved; -1 if none",
                consumer,
                tags,
                s -> s.checkpointScn());
        partitionMeters.gauge(
                "changegrid.consumer.pulled.scn",
                null,
                "The checkpoint after the last response pulled into the buffer",
                consumer,
                tags,
                s -> s.pulledScn());
        partitionMeters.gauge(
                "changegrid.consumer.lag",
                "milliseconds",
                "How far the last checkpoint's commit (or heartbeat) time is behind the wall"
                        + " clock; NaN before the first",
                consumer,
                tags,
                // No value rather than -1: a dashboard's max() or avg() must not see a negative
                // lag.
                s -> s.lagMillis() < 0 ? Double.NaN : s.lagMillis());
        if (callback instanceof MeteredCallback metered) {
            partitionMeters.meters.addAll(metered.registerMeters(registry, tags));
        }
        return partitionMeters;
    }

    private void counter(
            String name,
            String description,
            Consumer consumer,
            Tags tags,
            ToDoubleFunction<ConsumerStatus> value) {
        meters.add(
                FunctionCounter.builder(name, consumer, c -> value.applyAsDouble(c.status()))
                        .description(description)
                        .tags(tags)
                        .register(registry));
    }

    private void gauge(
            String name,
            String unit,
            String description,
            Consumer consumer,
            Tags tags,
            ToDoubleFunction<ConsumerStatus> value) {
        meters.add(
                Gauge.builder(name, consumer, c -> value.applyAsDouble(c.status()))
                        .description(description)
                        .baseUnit(unit)
                        .tags(tags)
                        .register(registry));
    }

    /** Removes the partition's meters: its consumer stopped. */
    @Override
    public void close() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
