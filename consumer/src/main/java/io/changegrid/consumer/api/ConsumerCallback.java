package io.changegrid.consumer.api;

/**
 * Receives a source's committed transactions, whole and in commit order: the user's code in a
 * consumer.
 *
 * <p><b>Order of calls.</b> Transactions arrive in batches:
 *
 * <pre>
 * onStartBatch
 *   onStartTransaction(t1)  onEvent(e)...  onEndTransaction(t1)
 *   onStartTransaction(t2)  onEvent(e)...  onEndTransaction(t2)
 *   ...
 * onEndBatch(checkpointScn)          then the checkpoint is saved
 * </pre>
 *
 * A batch holds one or more whole transactions (up to {@code batch.maxTransactions}, and only as
 * many as arrive within {@code batch.maxWait}); the checkpoint is saved after {@link #onEndBatch}
 * returned {@link CallbackResult#SUCCESS}, never inside a batch. Heartbeats of an idle source move
 * the checkpoint without any call.
 *
 * <p><b>Results.</b> Every method returns a {@link CallbackResult}. On {@code RETRY} or {@code
 * FAIL} the consumer abandons the batch at once (no further call for it, not even {@code
 * onEndTransaction} or {@code onEndBatch}) and calls {@link #onRollback} with the checkpoint; then
 * for {@code RETRY} it waits a backoff and delivers everything after the checkpoint again, from
 * {@code onStartBatch}; for {@code FAIL} it stops with a {@link CallbackFailedException}. An
 * exception thrown by any method (or a {@code null} result) counts as {@code FAIL} with that cause:
 * only the callback knows which of its errors are worth retrying, so it says so by returning {@code
 * RETRY}, and a bug never turns into an endless retry loop.
 *
 * <p><b>Delivery guarantee: at least once.</b> A transaction is delivered again after a {@code
 * RETRY} of its batch, and after a crash or {@code FAIL} once the consumer restarts at its
 * checkpoint. A callback that must not apply a transaction twice keeps the SCN of the last one it
 * applied (next to its data, atomically, for exactly-once) and skips transactions at or below it;
 * {@link #onEndBatch} names the SCN about to be checkpointed for that purpose.
 *
 * <p><b>Threading.</b> All methods of one consumer's callback are called on that consumer's single
 * dispatcher thread, one at a time, in the source's commit order; a callback needs no locking of
 * its own unless other threads read its state. A callback may block (e.g. on a database write); the
 * consumer keeps pulling from the relay meanwhile until its buffer is full.
 *
 * <p><b>Snapshots</b> (docs/bootstrap.md). A consumer configured to snapshot ({@code start:
 * snapshot}, {@code bootstrap.onTooOld: snapshot}) also receives the rows that already exist, as
 * <em>snapshot chunks</em> between the live transactions: a chunk arrives like a transaction
 * ({@link TransactionInfo#snapshotChunk()} true) whose events are INSERTs with {@link
 * EventView#isSnapshot()} true. Apply them as upserts. Live changes of rows not yet copied arrive
 * as usual: an UPDATE carries the whole row, and a DELETE may name a row you do not hold. After the
 * last chunk ({@link TransactionInfo#completesSnapshot()}) {@link #onSnapshotComplete} is called:
 * from then on the copy is whole and only live changes follow. A chunk moves the snapshot cursor
 * that {@link #onEndBatch(Checkpoint)} names, never the checkpoint SCN.
 *
 * <p><b>Transactions in parts</b> (docs/consumer.md). A transaction larger than a relay's part size
 * may reach the consumer in parts; it is still delivered as one transaction, in a batch of its own,
 * its counts in {@link #onStartTransaction} -1. If the consumer must start it over in the middle
 * (another relay, a RETRY), {@link #onRollback} is called and it comes again from its first event:
 * hold its writes in an open target transaction, not in memory, and commit at {@link #onEndBatch}.
 *
 * <p>Only {@link #onEvent} must be implemented; the other methods default to {@code SUCCESS}.
 */
@FunctionalInterface
public interface ConsumerCallback {

    /** A batch of transactions begins. */
    default CallbackResult onStartBatch() {
        return CallbackResult.SUCCESS;
    }

    /** A transaction begins; its events follow. */
    default CallbackResult onStartTransaction(TransactionInfo transaction) {
        return CallbackResult.SUCCESS;
    }

    /**
     * One event of the current transaction. The view is valid only during this call: copy what you
     * keep.
     */
    CallbackResult onEvent(EventView event);

    /** The current transaction is complete: all its events were delivered. */
    default CallbackResult onEndTransaction(TransactionInfo transaction) {
        return CallbackResult.SUCCESS;
    }

    /**
     * The batch is complete. After {@code SUCCESS} the consumer saves {@code checkpointScn} as its
     * checkpoint, so flush and sync what the batch wrote before returning.
     *
     * @param checkpointScn the checkpoint that will be saved: the SCN of the batch's last
     *     transaction, or a later one when heartbeats or left-out transactions followed it
     */
    default CallbackResult onEndBatch(long checkpointScn) {
        return CallbackResult.SUCCESS;
    }

    /**
     * The batch is complete, with the snapshot cursor checkpointed alongside the SCN: a callback
     * that keeps its checkpoint next to its data (exactly once) writes both in the same target
     * transaction. The default calls {@link #onEndBatch(long)}.
     *
     * @param checkpoint the checkpoint that will be saved: the SCN as in {@link #onEndBatch(long)},
     *     and the snapshot cursor after the batch's last chunk (null when no snapshot is running)
     */
    default CallbackResult onEndBatch(Checkpoint checkpoint) {
        return onEndBatch(checkpoint.scn());
    }

    /**
     * The copy of a table begins (docs/consumer.md, "Snapshots"): called inside a batch, before
     * anything of the response that carries the table's first chunk, the live transactions of that
     * chunk's window included. A callback that keeps a copy whose rows may be stale (a target
     * re-seeded after a 410 holds rows the source deleted while it was away) empties the table now:
     * every row of it the source holds arrives after this call, as a chunk row or a live change.
     * Called again for the same table when delivery of that response is repeated (a RETRY, a
     * restart from a checkpoint taken before its first chunk), so it must be idempotent; never once
     * a chunk of the table was checkpointed.
     *
     * @param database the source table's database (or schema), as the snapshot cursor names it
     * @param table the source table's name
     */
    default CallbackResult onSnapshotStart(String database, String table) {
        return CallbackResult.SUCCESS;
    }

    /**
     * The snapshot is complete: the last chunk was delivered (its {@code onEndTransaction}
     * returned). Called inside the batch; the checkpoint saved after it has no snapshot cursor.
     */
    default CallbackResult onSnapshotComplete() {
        return CallbackResult.SUCCESS;
    }

    /**
     * The batch in progress was abandoned after a {@code RETRY} or {@code FAIL}: undo or forget
     * what it did so far. Delivery resumes (after {@code RETRY}) with the first transaction after
     * {@code checkpointScn}. An exception thrown here stops the consumer as {@code FAIL} would.
     *
     * @param checkpointScn the last saved checkpoint, or -1 if none was saved yet
     */
    default void onRollback(long checkpointScn) {}
}
