package io.changegrid.consumer.api;

/**
 * A callback that keeps its own checkpoint next to its data, written in the same target transaction
 * as the changes it covers (the JDBC applier's checkpoint table). Where the consumer is a consumer
 * group member, this checkpoint is the owned partition's one record: the partition resumes from it
 * and saves to it alone, since it is always exactly as far as the data. The group keeps only the
 * partition's owner and epoch, and the callback carries that epoch into its writes as the fence.
 */
public interface CheckpointingCallback extends ConsumerCallback {

    /** The store reading and advancing the callback's own checkpoint. */
    CheckpointStore checkpointStore();
}
