package io.changegrid.consumer.api;

/**
 * A callback that keeps its own checkpoint next to its data, written in the same target transaction
 * as the changes it covers (the JDBC applier's checkpoint table). Where the consumer is a consumer
 * group member, this checkpoint, not the group's, is where an owned partition resumes: it is the
 * one that is always exactly as far as the data. The group's checkpoint is still saved after it,
 * for fencing and for status.
 */
public interface CheckpointingCallback extends ConsumerCallback {

    /** The store reading and advancing the callback's own checkpoint. */
    CheckpointStore checkpointStore();
}
