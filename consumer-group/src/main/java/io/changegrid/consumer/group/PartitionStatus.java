package io.changegrid.consumer.group;

import io.changegrid.consumer.SnapshotProgress;

/**
 * One owned partition on its owner, for the status endpoint and logs.
 *
 * @param partition the partition
 * @param epoch its ownership epoch on this member
 * @param state where it is
 * @param relay the relay pulled from now, or last; null before the first pull
 * @param startScn the checkpoint its consumer started after; -1 if none
 * @param checkpointScn the last checkpoint saved; -1 if none
 * @param timeline the relays' timeline the checkpoint is on ({@link
 *     io.changegrid.consumer.ConsumerStatus#timeline()}); null while none is known
 * @param pulledScn the checkpoint after the last response pulled
 * @param lagMillis 0 when everything the relay held at its last answer is checkpointed, else how
 *     far the last checkpoint's commit time is behind the wall clock; -1 if unknown
 * @param eventsDelivered events handed to the callback, re-deliveries included
 * @param transactionsDelivered transactions handed to the callback
 * @param error why it failed or was fenced; null otherwise
 * @param applier its applier's figures when the callback applies into a target ({@link
 *     ApplyingCallback}); null otherwise
 * @param snapshot the running snapshot's progress (docs/bootstrap.md); null when none runs
 */
public record PartitionStatus(
        int partition,
        long epoch,
        PartitionState state,
        String relay,
        long startScn,
        long checkpointScn,
        String timeline,
        long pulledScn,
        long lagMillis,
        long eventsDelivered,
        long transactionsDelivered,
        String error,
        ApplierStatus applier,
        SnapshotProgress snapshot) {}
