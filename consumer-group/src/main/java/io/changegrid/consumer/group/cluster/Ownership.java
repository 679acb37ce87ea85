package io.changegrid.consumer.group.cluster;

/**
 * A member's hold on one partition it was assigned: held while the member's ZooKeeper session is
 * the one it was assigned under, connected and not suspected of having lapsed ({@link
 * SessionLease}), and until the partition is revoked. The dispatcher of the partition's consumer
 * asks it before every transaction, so it answers from memory, without a ZooKeeper call.
 *
 * <p>Threading: any thread.
 */
@FunctionalInterface
public interface Ownership {

    /** Whether the member may still act as the partition's owner. */
    boolean isHeld();
}
