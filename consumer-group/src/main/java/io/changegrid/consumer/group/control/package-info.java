/**
 * Operator control of a consumer group, kept in one ZooKeeper node per group that every member
 * watches: paused partitions (or the whole group) and pending checkpoint resets. Writers (the
 * console) change it with version-checked writes; each member applies what concerns the partitions
 * it owns, under its ownership epoch, so a control can never make two members deliver one
 * partition.
 */
package io.changegrid.consumer.group.control;
