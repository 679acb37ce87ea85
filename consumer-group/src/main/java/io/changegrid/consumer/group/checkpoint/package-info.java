/**
 * A consumer group's checkpoints in ZooKeeper: one node per partition, written under the
 * partition's ownership epoch so that a member that lost its partition cannot overwrite its new
 * owner's progress.
 */
package io.changegrid.consumer.group.checkpoint;
