package io.changegrid.consumer.group.cluster;

/**
 * Hears which partitions of its group a member owns. Calls for one partition never overlap, and a
 * partition is revoked before it is assigned again; calls for different partitions may run at the
 * same time, on Helix's state transition threads.
 *
 * <p>Helix reports the partition's new state once the call returns, and only then hands a revoked
 * partition to another member: {@link #onRevoked} should return after the partition's work stopped
 * and its checkpoint was saved.
 */
public interface PartitionListener {

    /**
     * This member owns {@code partition} from now on.
     *
     * @param epoch the ownership epoch claimed for it: larger than any earlier owner's
     * @param ownership whether the member still owns it, answered from memory: no longer once its
     *     session was lost or is in doubt, or the partition was revoked; ask it before acting as
     *     the owner (the dispatcher does before every transaction)
     * @throws Exception if the partition cannot be taken on; Helix marks it ERROR on this member
     */
    void onAssigned(int partition, long epoch, Ownership ownership) throws Exception;

    /**
     * This member no longer owns {@code partition}: moved to another member, the member is leaving,
     * or its ZooKeeper session was lost. Called also when {@link #onAssigned} threw.
     */
    void onRevoked(int partition);
}
