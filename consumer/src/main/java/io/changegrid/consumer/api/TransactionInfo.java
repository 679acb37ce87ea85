package io.changegrid.consumer.api;

/**
 * One source transaction as {@link ConsumerCallback#onStartTransaction} and {@link
 * ConsumerCallback#onEndTransaction} see it, or one chunk of a snapshot (docs/bootstrap.md). An
 * immutable value: it may be kept.
 *
 * @param sourceId the source's id
 * @param scn the transaction's position on the source's timeline; the consumer's checkpoint after
 *     it. For a snapshot chunk, the chunk's high watermark: its rows are valid after every
 *     transaction below it; a chunk does not move the checkpoint SCN
 * @param transactionId the source's id of the transaction (e.g. a GTID)
 * @param commitTimeMicros the source commit time, microseconds since the epoch
 * @param eventCount the number of events the transaction had at the source; -1 in {@link
 *     ConsumerCallback#onStartTransaction} for a transaction in parts (docs/consumer.md,
 *     "Transactions in parts"), which is not known until its last part
 * @param deliveredCount the number of events this consumer receives for it: fewer than {@code
 *     eventCount} when a table or partition subscription left some out; -1 in {@code
 *     onStartTransaction} for a transaction in parts
 * @param snapshotChunk whether this is a snapshot chunk: rows copied from the source's tables
 *     ({@link EventView#isSnapshot()} INSERTs), not a source transaction
 * @param completesSnapshot whether this chunk is the snapshot's last ({@link
 *     ConsumerCallback#onSnapshotComplete} follows its {@code onEndTransaction})
 * @param snapshotCursor for a snapshot chunk, the snapshot cursor after it, which the checkpoint
 *     will hold once the batch ends ({@link ConsumerCallback#onEndBatch(Checkpoint)}); null for a
 *     live transaction and for the snapshot's last chunk
 */
public record TransactionInfo(
        int sourceId,
        long scn,
        String transactionId,
        long commitTimeMicros,
        int eventCount,
        int deliveredCount,
        boolean snapshotChunk,
        boolean completesSnapshot,
        String snapshotCursor) {

    /** A live source transaction. */
    public TransactionInfo(
            int sourceId,
            long scn,
            String transactionId,
            long commitTimeMicros,
            int eventCount,
            int deliveredCount) {
        this(
                sourceId,
                scn,
                transactionId,
                commitTimeMicros,
                eventCount,
                deliveredCount,
                false,
                false,
                null);
    }
}
