package io.changegrid.consumer.pull;

import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.protocol.StreamParameters;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The query parameters of the puller's {@code GET /v1/stream} requests but {@code from}: the fixed
 * part (size, long-poll wait, format, subscription) built once, and the snapshot cursor of each
 * request (docs/bootstrap.md).
 */
final class StreamQuery {

    private StreamQuery() {}

    /** The parameters every request of this consumer carries, each as {@code &name=value}. */
    static String fixed(ConsumerConfig config, int requestBytes) {
        return parameter(StreamParameters.MAX_BYTES, Integer.toString(requestBytes))
                + parameter(
                        StreamParameters.TIMEOUT_MS, Long.toString(config.pollTimeout().toMillis()))
                + parameter(StreamParameters.FORMAT, "binary")
                + subscription(config.subscription());
    }

    /** {@code &snapshot=<cursor>}, or nothing outside a snapshot ({@code cursor} null). */
    static String snapshot(String cursor) {
        return cursor == null ? "" : parameter(StreamParameters.SNAPSHOT, cursor);
    }

    /** {@code &parts=<held>}, or nothing outside a transaction in parts ({@code held} 0). */
    static String parts(int held) {
        return held == 0 ? "" : parameter(StreamParameters.PARTS, Integer.toString(held));
    }

    private static String subscription(Subscription subscription) {
        StringBuilder query = new StringBuilder();
        String filter = subscription.filterJson();
        if (filter != null) {
            return parameter(StreamParameters.FILTER, filter);
        }
        if (!subscription.tables().isEmpty()) {
            query.append(
                    parameter(StreamParameters.TABLES, String.join(",", subscription.tables())));
        }
        if (subscription.partitions() > 1) {
            query.append(
                            parameter(
                                    StreamParameters.PARTITION,
                                    Integer.toString(subscription.partition())))
                    .append(
                            parameter(
                                    StreamParameters.PARTITIONS,
                                    Integer.toString(subscription.partitions())));
        }
        return query.toString();
    }

    /** {@code &name=value}, the value URL-encoded. */
    private static String parameter(String name, String value) {
        return "&" + name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
