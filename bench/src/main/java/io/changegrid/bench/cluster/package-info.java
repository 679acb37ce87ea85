/**
 * Consumer group measurements: time from a member's crash to its partitions flowing again, and
 * throughput with one, two and three members of a group ({@link
 * io.changegrid.bench.cluster.ClusterCommand}, {@code bin/bench cluster}).
 */
package io.changegrid.bench.cluster;
