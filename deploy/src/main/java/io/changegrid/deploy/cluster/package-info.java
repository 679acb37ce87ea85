/**
 * A local multi-process grid for operators and failover tests: ZooKeeper, a private MariaDB source,
 * relays and a consumer group, each its own JVM, started and stopped by {@code
 * deploy/bin/local-cluster.sh} ({@link io.changegrid.deploy.cluster.LocalClusterMain}).
 */
package io.changegrid.deploy.cluster;
