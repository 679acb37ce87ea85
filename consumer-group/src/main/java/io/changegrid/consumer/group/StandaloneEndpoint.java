package io.changegrid.consumer.group;

import io.changegrid.config.Config;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerStatus;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.group.config.GroupSettings;
import io.changegrid.consumer.group.metrics.ConsumerMeters;
import io.changegrid.consumer.group.metrics.MemberMetrics;
import java.net.URI;
import java.util.List;

/**
 * The status endpoint of a consumer that runs alone, not in a group ({@code cluster.status.port}
 * without {@code cluster.zookeeper}): the same {@code GET /v1/status} and {@code GET /metrics} as a
 * member's, its one stream shown as partition 0 of the group {@value #GROUP}, so that Prometheus,
 * the dashboard and the console read it like any member.
 *
 * <p>Threading: the endpoint's threads read the consumer's status, which is thread-safe.
 */
final class StandaloneEndpoint implements AutoCloseable {

    /** The {@code group} tag and status field of a standalone consumer. */
    static final String GROUP = "standalone";

    private final MemberMetrics metrics;
    private final ConsumerMeters meters;
    private final StatusEndpoint endpoint;

    private StandaloneEndpoint(
            MemberMetrics metrics, ConsumerMeters meters, StatusEndpoint endpoint) {
        this.metrics = metrics;
        this.meters = meters;
        this.endpoint = endpoint;
    }

    /**
     * Starts the endpoint {@code config} asks for, or returns null when {@code cluster.status.port}
     * is -1.
     *
     * @throws Exception if the port cannot be bound or a TLS file read
     */
    static StandaloneEndpoint start(
            Config config, String name, Consumer consumer, ConsumerCallback callback)
            throws Exception {
        int port = config.get(GroupSettings.CLUSTER_STATUS_PORT);
        if (port < 0) {
            return null;
        }
        MemberMetrics metrics = new MemberMetrics(GROUP, () -> 1);
        ConsumerMeters meters =
                ConsumerMeters.register(metrics.registry(), GROUP, 0, consumer, callback);
        List<String> relays = consumer.config().relays().stream().map(URI::toString).toList();
        StatusEndpoint endpoint;
        try {
            endpoint =
                    new StatusEndpoint(
                            config.get(GroupSettings.CLUSTER_STATUS_HOST),
                            port,
                            GroupSettings.STATUS_TLS.read(config),
                            () -> status(name, relays, consumer, callback),
                            metrics::scrape);
            endpoint.start();
        } catch (Exception e) {
            meters.close();
            metrics.close();
            throw e;
        }
        return new StandaloneEndpoint(metrics, meters, endpoint);
    }

    /** {@code http(s)://host:port}, with the port actually bound. */
    String url() {
        return endpoint.url();
    }

    private static GroupStatus status(
            String name, List<String> relays, Consumer consumer, ConsumerCallback callback) {
        ConsumerStatus now = consumer.status();
        String failure = consumer.failure().map(Throwable::getMessage).orElse(null);
        PartitionStatus stream =
                new PartitionStatus(
                        0,
                        0,
                        failure == null ? PartitionState.RUNNING : PartitionState.FAILED,
                        now.relay(),
                        -1,
                        now.checkpointScn(),
                        now.timeline(),
                        now.pulledScn(),
                        now.lagMillis(),
                        now.eventsDelivered(),
                        now.transactionsDelivered(),
                        failure,
                        callback instanceof ApplyingCallback applier
                                ? applier.applierStatus()
                                : null,
                        now.snapshot());
        return new GroupStatus(GROUP, name, true, false, relays, List.of(stream));
    }

    @Override
    public void close() {
        try {
            endpoint.close();
        } finally {
            meters.close();
            metrics.close();
        }
    }
}
