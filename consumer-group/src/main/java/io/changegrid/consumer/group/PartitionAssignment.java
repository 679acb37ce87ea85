package io.changegrid.consumer.group;

/**
 * One partition as its owner got it: what a {@link PartitionCallbackFactory} builds a callback for.
 * An immutable value.
 *
 * <p>A callback that writes to a target keeps {@link #epoch()} with what it writes (e.g. in the
 * target transaction, as the JDBC applier does with {@code assignment::epoch}): a target that
 * refuses writes with a smaller epoch than it has seen for the partition stays correct even when a
 * fenced owner, paused past its session, applies a batch before it notices that it lost the
 * partition.
 *
 * @param group the group's name
 * @param instance the owning member
 * @param partition the partition, {@code 0 .. partitions - 1}
 * @param partitions the number of partitions of the group
 * @param epoch the ownership epoch: larger than any earlier owner's of this partition
 */
public record PartitionAssignment(
        String group, String instance, int partition, int partitions, long epoch) {}
