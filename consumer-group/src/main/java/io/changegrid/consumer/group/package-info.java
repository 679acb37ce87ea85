/**
 * Consumer groups: {@link io.changegrid.consumer.group.GroupConsumer} runs one {@link
 * io.changegrid.consumer.Consumer} per partition this member owns, each checkpointing in ZooKeeper
 * under the partition's ownership epoch, and reports what it runs on a status endpoint.
 */
package io.changegrid.consumer.group;
