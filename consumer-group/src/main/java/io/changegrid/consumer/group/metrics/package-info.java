/**
 * A group member's Micrometer meters, scraped in Prometheus text format on its status endpoint
 * ({@code GET /metrics}): JVM meters ({@link io.changegrid.consumer.group.metrics.MemberMetrics}),
 * each owned partition's consumer read from what it already counts ({@link
 * io.changegrid.consumer.group.metrics.ConsumerMeters}), and the meters a partition's callback adds
 * ({@link io.changegrid.consumer.group.metrics.MeteredCallback}, the JDBC applier's rows and
 * commits). Every meter reads at scrape time; the delivery path does no extra work.
 */
package io.changegrid.consumer.group.metrics;
