/**
 * The Helix adapter of consumer groups, and the only package that sees Helix: a group is a Helix
 * cluster whose one resource has a partition per subscription partition, in the LeaderStandby state
 * model (a partition is owned where it is LEADER), placed evenly and with the fewest moves by the
 * member whose controller leads ({@link io.changegrid.consumer.group.cluster.GroupPlacement}). The
 * rest of the consumer sees {@link io.changegrid.consumer.group.cluster.ClusterMember} and a typed
 * {@link io.changegrid.consumer.group.cluster.PartitionListener}.
 */
package io.changegrid.consumer.group.cluster;
