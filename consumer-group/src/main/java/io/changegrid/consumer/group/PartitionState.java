package io.changegrid.consumer.group;

/** Where one owned partition is, on its owner. */
public enum PartitionState {
    /** Owned, but no relay of the source is registered yet: it starts when one is. */
    WAITING_FOR_RELAYS,
    /** Its consumer pulls and dispatches. */
    RUNNING,
    /**
     * Its consumer runs but hands nothing to the callback: this member's ownership is in doubt (its
     * ZooKeeper session is not confirmed) until the session is back or the partition moves.
     */
    SUSPENDED,
    /**
     * Its consumer runs but hands nothing to the callback because an operator paused it (or its
     * group) in the group's control node; ownership stays with this member.
     */
    PAUSED,
    /** Its consumer stopped on an error: see the status's error. */
    FAILED,
    /**
     * Its consumer stopped because a checkpoint save found a newer owner: this member lost the
     * partition and has not been told yet.
     */
    FENCED
}
