/**
 * Relay discovery: relays register themselves in ZooKeeper ({@link
 * io.changegrid.protocol.RelayRegistration}: source, endpoint, tables captured, what their policies
 * select) and a consumer group builds each partition's relay list from what is registered for its
 * source, by the replica rule of the same record.
 */
package io.changegrid.consumer.group.discovery;
