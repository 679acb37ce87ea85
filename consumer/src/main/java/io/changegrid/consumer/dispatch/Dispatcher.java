package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.api.CallbackFailedException;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.events.schema.SchemaRegistry;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands whole transactions from the consumer buffer to the {@link ConsumerCallback}, in batches,
 * and checkpoints after each (the contract is {@link ConsumerCallback}'s Javadoc):
 *
 * <ul>
 *   <li><b>Batching</b>: a batch starts with the first transaction available and takes more as long
 *       as they arrive within {@code batch.maxWait} of its start, up to {@code
 *       batch.maxTransactions}; it also ends early when the puller waits for room (at the end of
 *       the fetched response it is in: room is released a whole response at a time), on stop, and
 *       when the puller finished. Heartbeats and left-out transactions only move the checkpoint;
 *       when no batch is open they are checkpointed as soon as nothing else is buffered.
 *   <li><b>Checkpoint</b>: saved after {@code onEndBatch} returned SUCCESS; then the buffer entries
 *       wholly before it are released, which is the only way buffer space is freed.
 *   <li><b>RETRY</b> ({@link BatchRollback}): {@code onRollback}, a backoff, and delivery again
 *       from the first transaction after the checkpoint, re-read from the buffer (nothing is
 *       fetched again); after {@code callback.retryLimit} RETRYs in a row it stops as on FAIL.
 *   <li><b>FAIL</b> (or an exception, or {@code null}): {@code onRollback}, then the dispatcher
 *       stops with a {@link CallbackFailedException}; the checkpoint stays before the failed
 *       transaction.
 *   <li><b>Gate</b> ({@link DeliveryGate}, a consumer-group member's ownership of the partition):
 *       asked before every transaction, before {@code onEndBatch} and before anything is
 *       checkpointed. Closed: the open batch is rolled back ({@code onRollback}) and the dispatcher
 *       waits, delivering again from the checkpoint if the gate opens, or ends when stopped. A call
 *       already inside the callback when the gate closes runs to its end.
 *   <li><b>Transactions in parts</b> ({@link PartsDelivery}): one transaction, in a batch of its
 *       own (a batch open when its first part comes ends before it), so no checkpoint falls inside
 *       it; the parts' entries are released as they are delivered. A rollback in the middle then
 *       has the puller fetch again from the checkpoint ({@link ConsumerBuffer#requestRestart}), and
 *       the transaction comes again from its start.
 * </ul>
 *
 * <p>Per event it allocates nothing: frames are read in place through one {@link FrameEventView};
 * per transaction it allocates its {@link TransactionInfo}.
 *
 * <p>Threading: {@link #run} on the dispatcher thread, which makes every callback call; {@link
 * #stop} and the getters from any thread.
 */
public final class Dispatcher implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    private static final long IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long GATE_POLL_MILLIS = 20;

    private final ConsumerBuffer buffer;
    private final ConsumerCallback callback;
    private final CheckpointStore store;
    private final int maxTransactions;
    private final long maxWaitNanos;
    private final BufferCursor cursor;
    private final TransactionDelivery delivery;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final DeliveryGate gate;
    private final PartsDelivery parts;
    private final BatchRollback rollback;

    private final CheckpointProgress progress;
    private boolean finished;

    private volatile boolean stopping;
    private volatile long eventsDelivered;
    private volatile long snapshotRowsDelivered;
    private volatile long transactionsDelivered;
    private volatile long batches;
    private volatile long bytesDelivered;
    private volatile long callbackNanos;
    private volatile ConsumerException failure;

    /**
     * @param config batching and retry settings
     * @param buffer the consumer buffer this dispatcher is the only reader of
     * @param registries the schemas of each relay, by relay index
     * @param callback the user's callback
     * @param store where checkpoints are saved
     * @param startScn the checkpoint the consumer started after (-1: none)
     */
    public Dispatcher(
            ConsumerConfig config,
            ConsumerBuffer buffer,
            List<SchemaRegistry> registries,
            ConsumerCallback callback,
            CheckpointStore store,
            long startScn) {
        this(config, buffer, registries, callback, store, startScn, DeliveryGate.ALWAYS_OPEN);
    }

    /**
     * A dispatcher that delivers only while {@code gate} is open; the other parameters as {@link
     * #Dispatcher(ConsumerConfig, ConsumerBuffer, List, ConsumerCallback, CheckpointStore, long)}.
     */
    public Dispatcher(
            ConsumerConfig config,
            ConsumerBuffer buffer,
            List<SchemaRegistry> registries,
            ConsumerCallback callback,
            CheckpointStore store,
            long startScn,
            DeliveryGate gate) {
        this(config, buffer, registries, callback, store, Checkpoint.at(startScn), gate);
    }

    /**
     * A dispatcher starting at a checkpoint with a snapshot cursor (docs/bootstrap.md); the other
     * parameters as {@link #Dispatcher(ConsumerConfig, ConsumerBuffer, List, ConsumerCallback,
     * CheckpointStore, long, DeliveryGate)}.
     *
     * @param start the checkpoint the consumer started after, with the snapshot cursor the puller
     *     starts with
     */
    public Dispatcher(
            ConsumerConfig config,
            ConsumerBuffer buffer,
            List<SchemaRegistry> registries,
            ConsumerCallback callback,
            CheckpointStore store,
            Checkpoint start,
            DeliveryGate gate) {
        this.gate = gate;
        this.buffer = buffer;
        this.callback = callback;
        this.store = store;
        this.maxTransactions = config.batchMaxTransactions();
        this.maxWaitNanos = config.batchMaxWait().toNanos();
        this.cursor = new BufferCursor(buffer);
        this.delivery =
                new TransactionDelivery(
                        buffer.view(), new FrameEventView(buffer.view(), registries), callback);
        this.progress = new CheckpointProgress(start);
        this.parts = new PartsDelivery(delivery, gate, () -> stopping);
        this.rollback =
                new BatchRollback(config, callback, buffer, cursor, progress, parts, stopRequested);
    }

    @Override
    public void run() {
        try {
            while (!stopping) {
                if (!gate.isOpen() && !awaitGate()) {
                    return;
                }
                // Progress from heartbeats is saved as soon as nothing else is buffered.
                int item = cursor.next(progress.moved() ? 0 : IDLE_WAIT_NANOS);
                if (item == BufferCursor.TRANSACTION || item == BufferCursor.SNAPSHOT_BEGINS) {
                    if (!runBatch(item)) {
                        return;
                    }
                } else if (item == BufferCursor.HEARTBEAT || item == BufferCursor.ENTRY_END) {
                    advance(item);
                    if (!progress.moved()) {
                        settle();
                    }
                } else if (item == BufferCursor.NOTHING_YET) {
                    settle();
                } else {
                    settle();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ConsumerException e) {
            failure = e; // a CallbackFailedException from the rollback, or a checkpoint not saved
        } catch (RuntimeException | Error e) {
            failure = new ConsumerException("dispatcher stopped on a bug: " + e, e);
            LOG.error("dispatcher stopped on a bug", e);
        } finally {
            if (failure != null) {
                LOG.error("dispatcher stopped: {}", failure.getMessage(), failure.getCause());
            }
        }
    }

    /** Asks the dispatcher to stop after the transaction in progress; returns at once. */
    public void stop() {
        stopping = true;
        stopRequested.countDown();
        buffer.wakeReader();
    }

    /** The last checkpoint saved, or the start checkpoint. */
    public long checkpointScn() {
        return progress.savedScn();
    }

    /**
     * The snapshot cursor of the last checkpoint saved, or the start's; null outside a snapshot.
     */
    public String checkpointSnapshot() {
        return progress.savedSnapshot();
    }

    /** Snapshot rows (events of chunks) delivered whole, re-deliveries included. */
    public long snapshotRowsDelivered() {
        return snapshotRowsDelivered;
    }

    /** The commit (or heartbeat) time at the last checkpoint, microseconds; 0 if unknown. */
    public long checkpointTimeMicros() {
        return progress.savedTimeMicros();
    }

    /** Events of whole transactions delivered, re-deliveries included. */
    public long eventsDelivered() {
        return eventsDelivered;
    }

    /** Transactions delivered whole, re-deliveries included. */
    public long transactionsDelivered() {
        return transactionsDelivered;
    }

    /** Batches completed and checkpointed. */
    public long batches() {
        return batches;
    }

    /** RETRY results so far. */
    public long retries() {
        return rollback.retries();
    }

    /** Frame bytes of the events of whole transactions delivered, re-deliveries included. */
    public long bytesDelivered() {
        return bytesDelivered;
    }

    /**
     * Nanoseconds spent in the callback: its batch methods, and each transaction from {@code
     * onStartTransaction} to {@code onEndTransaction} (two clock reads a transaction, none an
     * event).
     */
    public long callbackNanos() {
        return callbackNanos;
    }

    /** Why the dispatcher stopped, or null. */
    public ConsumerException failure() {
        return failure;
    }

    /**
     * Delivers one batch, starting with the transaction (or the beginning of a table's copy) the
     * cursor is on.
     *
     * @return false if the dispatcher must end
     * @throws CallbackFailedException if the callback failed, which the dispatcher stops with
     */
    private boolean runBatch(int first) throws InterruptedException {
        if (!gate.isOpen()) {
            rollback.suspend(false);
            return true;
        }
        long deadline = System.nanoTime() + maxWaitNanos;
        CallbackResult result;
        long started = System.nanoTime();
        try {
            result = callback.onStartBatch();
        } catch (Throwable t) {
            timeCallback(started);
            rollback.abandon(CallbackResult.FAIL, "onStartBatch", cursor.scn(), -1, t);
            return true;
        }
        timeCallback(started);
        if (result != CallbackResult.SUCCESS) {
            rollback.abandon(result, "onStartBatch", cursor.scn(), -1, null);
            return true;
        }
        int count = 0;
        int item = first;
        while (true) {
            if (item == BufferCursor.TRANSACTION && cursor.continues() && !cursor.chunk()) {
                if (count > 0) {
                    cursor.stepBack(); // a transaction in parts is a batch of its own
                    break;
                }
                if (!gate.isOpen()) {
                    rollback.suspend(true);
                    return true;
                }
                long delivering = System.nanoTime();
                int outcome = parts.deliver(cursor);
                timeCallback(delivering);
                eventsDelivered = eventsDelivered + parts.events();
                bytesDelivered = bytesDelivered + parts.bytes();
                switch (outcome) {
                    case PartsDelivery.DELIVERED -> {}
                    case PartsDelivery.ABANDONED -> {
                        rollback.abandon(parts.abandoned());
                        return true;
                    }
                    case PartsDelivery.RESTARTED -> {
                        rollback.startOver();
                        return true;
                    }
                    case PartsDelivery.GATE_CLOSED -> {
                        rollback.suspend(true);
                        return true;
                    }
                    default -> {
                        // Stopping, or the puller finished: the transaction is not complete.
                        rollback.suspend(true);
                        finished = true;
                        return false;
                    }
                }
                transactionsDelivered = transactionsDelivered + 1;
                count++;
                advance(item);
                break;
            } else if (item == BufferCursor.SNAPSHOT_BEGINS) {
                if (!gate.isOpen()) {
                    rollback.suspend(true);
                    return true;
                }
                long delivering = System.nanoTime();
                TransactionDelivery.Abandoned abandoned =
                        delivery.begin(cursor, progress.pending().scn());
                timeCallback(delivering);
                if (abandoned != null) {
                    rollback.abandon(abandoned);
                    return true;
                }
            } else if (item == BufferCursor.TRANSACTION) {
                if (!gate.isOpen()) {
                    rollback.suspend(true);
                    return true;
                }
                long delivering = System.nanoTime();
                TransactionDelivery.Abandoned abandoned = delivery.deliver(cursor);
                timeCallback(delivering);
                if (abandoned != null) {
                    rollback.abandon(abandoned);
                    return true;
                }
                eventsDelivered = eventsDelivered + cursor.frames();
                if (cursor.chunk()) {
                    snapshotRowsDelivered = snapshotRowsDelivered + cursor.frames();
                }
                transactionsDelivered = transactionsDelivered + 1;
                bytesDelivered = bytesDelivered + delivery.bytes();
                count++;
                advance(item);
                if (count >= maxTransactions || stopping) {
                    break;
                }
            } else if (item == BufferCursor.HEARTBEAT || item == BufferCursor.ENTRY_END) {
                advance(item);
                // Room is freed a whole entry (one fetched response) at a time: a puller waiting
                // for room gets it when the batch ends at an entry's end, not before. Ending after
                // every transaction instead would give a consumer catching up one-transaction
                // batches while freeing nothing.
                if (item == BufferCursor.ENTRY_END && buffer.isWriterWaiting()) {
                    break;
                }
            } else {
                finished = item == BufferCursor.FINISHED;
                break;
            }
            item = cursor.next(Math.max(0, deadline - System.nanoTime()));
        }
        if (!gate.isOpen()) {
            rollback.suspend(true);
            return true;
        }
        long ending = System.nanoTime();
        Checkpoint checkpoint = progress.pending();
        try {
            result = callback.onEndBatch(checkpoint);
        } catch (Throwable t) {
            timeCallback(ending);
            rollback.abandon(CallbackResult.FAIL, "onEndBatch", checkpoint.scn(), -1, t);
            return true;
        }
        timeCallback(ending);
        if (result != CallbackResult.SUCCESS) {
            rollback.abandon(result, "onEndBatch", checkpoint.scn(), -1, null);
            return true;
        }
        settle();
        parts.forget(); // checkpointed: nothing of it is delivered again
        rollback.succeeded();
        batches = batches + 1;
        return !finished;
    }

    /**
     * Adds the time since {@code started} to the callback's; before any rollback or back-off, which
     * are not the callback's time.
     */
    private void timeCallback(long started) {
        callbackNanos = callbackNanos + (System.nanoTime() - started);
    }

    /**
     * Waits while the gate is closed.
     *
     * @return true once it is open again, false if the dispatcher was stopped meanwhile
     */
    private boolean awaitGate() throws InterruptedException {
        long since = System.nanoTime();
        LOG.warn(
                "delivery waits, the partition's ownership is in doubt: store={}, checkpoint={}",
                store,
                progress.savedScn());
        while (!stopRequested.await(GATE_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            if (gate.isOpen()) {
                LOG.info(
                        "delivery goes on, the partition's ownership is confirmed: store={},"
                                + " waitedMillis={}",
                        store,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since));
                return true;
            }
        }
        return false;
    }

    /**
     * Takes the item just delivered into the pending checkpoint: a snapshot chunk moves the cursor
     * (after its rows were handed over), never the SCN; an entry end moves both.
     */
    private void advance(int item) {
        if (item == BufferCursor.TRANSACTION && cursor.chunk()) {
            progress.snapshotMoved(cursor.snapshot());
            return;
        }
        progress.advance(cursor.scn(), cursor.timeMicros());
        if (item == BufferCursor.ENTRY_END) {
            progress.snapshotMoved(cursor.snapshot());
        }
    }

    /**
     * Saves the pending checkpoint if it moved (and the gate is open), then releases the buffer
     * entries wholly before the cursor.
     */
    private void settle() {
        if (progress.moved()) {
            if (!gate.isOpen()) {
                // Nothing is checkpointed while ownership is in doubt (a heartbeat's progress, or
                // a batch whose onEndBatch ran as the gate closed): kept pending, saved if the
                // gate opens again, else the next owner resumes before it.
                return;
            }
            progress.save(store);
        }
        cursor.mark();
        buffer.release(cursor.markSequence());
    }
}
