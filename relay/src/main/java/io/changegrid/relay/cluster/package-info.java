/**
 * A relay's presence in a grid's ZooKeeper: it registers its source, endpoint and what it captures,
 * so that consumer groups find it and fail over among the replicas of a source.
 */
package io.changegrid.relay.cluster;
