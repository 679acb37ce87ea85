package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerException;
import java.io.IOException;
import java.util.Objects;

/**
 * The dispatcher's checkpoint: the one last saved and the one pending (what the items delivered
 * since would save), each an SCN with its commit time and snapshot cursor (docs/bootstrap.md). A
 * transaction, heartbeat or entry end moves the pending SCN; a snapshot chunk and an entry end move
 * the pending cursor only, since a chunk never moves the SCN.
 *
 * <p>Threading: changed on the dispatcher thread; {@link #savedScn()} and {@link
 * #savedTimeMicros()} readable from any thread.
 */
final class CheckpointProgress {

    private long pendingScn;
    private long pendingTimeMicros;
    private String pendingSnapshot;
    private volatile String savedSnapshot; // read by status() from any thread
    private volatile long savedScn;
    private volatile long savedTimeMicros;

    /** Progress starting at {@code start}, which counts as saved. */
    CheckpointProgress(Checkpoint start) {
        this.savedScn = start.scn();
        this.pendingScn = start.scn();
        this.savedSnapshot = start.snapshot();
        this.pendingSnapshot = start.snapshot();
    }

    /** A transaction, heartbeat or entry end at {@code scn} was delivered. */
    void advance(long scn, long timeMicros) {
        if (scn > pendingScn) {
            pendingScn = scn;
        }
        if (timeMicros > 0) {
            pendingTimeMicros = timeMicros;
        }
    }

    /** A snapshot chunk, or an entry, was delivered whole: the cursor after it is pending. */
    void snapshotMoved(String snapshot) {
        pendingSnapshot = snapshot;
    }

    /** Whether the pending checkpoint differs from the saved one. */
    boolean moved() {
        return pendingScn > savedScn || !Objects.equals(pendingSnapshot, savedSnapshot);
    }

    /** The checkpoint that saving now would save. */
    Checkpoint pending() {
        return new Checkpoint(pendingScn, pendingSnapshot);
    }

    /** Forgets what is pending: back to the saved checkpoint (a rollback). */
    void rewind() {
        pendingScn = savedScn;
        pendingTimeMicros = savedTimeMicros;
        pendingSnapshot = savedSnapshot;
    }

    /**
     * Saves the pending checkpoint in {@code store}, if it moved.
     *
     * @throws ConsumerException naming the checkpoint and the store if it could not be saved
     */
    void save(CheckpointStore store) {
        if (!moved()) {
            return;
        }
        Checkpoint checkpoint = pending();
        try {
            store.save(checkpoint);
        } catch (IOException e) {
            throw new ConsumerException(
                    "checkpoint not saved: scn="
                            + pendingScn
                            + (pendingSnapshot == null ? "" : ", snapshot=" + pendingSnapshot)
                            + ", store="
                            + store,
                    e);
        }
        savedScn = pendingScn;
        savedSnapshot = pendingSnapshot;
        savedTimeMicros = pendingTimeMicros;
    }

    /** The last checkpoint SCN saved, or the start. */
    long savedScn() {
        return savedScn;
    }

    /** The commit (or heartbeat) time at the last saved checkpoint, microseconds; 0 if unknown. */
    long savedTimeMicros() {
        return savedTimeMicros;
    }

    /** The last snapshot cursor saved, or the start's; null outside a snapshot. */
    String savedSnapshot() {
        return savedSnapshot;
    }
}
