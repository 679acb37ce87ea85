/**
 * Relay discovery: relays register themselves in ZooKeeper (source, endpoint, tables captured) and
 * a consumer group builds each partition's relay list from what is registered for its source.
 */
package io.changegrid.consumer.group.discovery;
