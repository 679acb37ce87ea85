package io.changegrid.consumer;

import io.changegrid.consumer.pull.PullerState;

/**
 * A snapshot of a consumer's progress, for logs, metrics and tests.
 *
 * @param state the consumer's state
 * @param pullerState the puller's state
 * @param relay the relay pulled from now, or last
 * @param pulledScn the checkpoint after the last response taken into the buffer
 * @param checkpointScn the last checkpoint saved (or loaded at start); -1 if none
 * @param timeline the identity of the relays' timeline the checkpoint is on (docs/consumer.md,
 *     "When the source server changes"): the saved one, or the one the first relay named; null
 *     while neither names one
 * @param lagMillis 0 when everything the relay held at its last answer is checkpointed, else how
 *     far the last checkpoint's commit (or heartbeat) time is behind the wall clock; -1 before the
 *     first checkpoint with a time
 * @param eventsDelivered events of whole transactions handed to the callback, re-deliveries
 *     included
 * @param transactionsDelivered transactions handed to the callback whole, re-deliveries included
 * @param batches batches completed and checkpointed
 * @param retries RETRY results of the callback
 * @param bufferUsedBytes bytes of the consumer buffer in use
 * @param bufferCapacity the buffer's size
 * @param bytesPulled response body bytes taken into the buffer
 * @param bytesDelivered frame bytes of the events handed to the callback, re-deliveries included
 * @param callbackNanos nanoseconds spent in the callback's methods
 * @param snapshot the running snapshot's progress; null when none runs
 */
public record ConsumerStatus(
        ConsumerState state,
        PullerState pullerState,
        String relay,
        long pulledScn,
        long checkpointScn,
        String timeline,
        long lagMillis,
        long eventsDelivered,
        long transactionsDelivered,
        long batches,
        long retries,
        long bufferUsedBytes,
        int bufferCapacity,
        long bytesPulled,
        long bytesDelivered,
        long callbackNanos,
        SnapshotProgress snapshot) {}
