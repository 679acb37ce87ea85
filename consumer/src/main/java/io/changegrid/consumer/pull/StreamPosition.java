package io.changegrid.consumer.pull;

import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.protocol.SnapshotCursor;

/**
 * Where the {@link Puller} asks from next: the checkpoint after the last answer taken into the
 * buffer (at start, the consumer's saved checkpoint), the snapshot cursor while a snapshot runs,
 * the parts held of a transaction in parts, and the restart epoch of the entries published now
 * ({@link ConsumerBuffer#requestRestart}).
 *
 * <p>Threading: changed on the puller thread; {@link #published()} readable from any thread.
 */
final class StreamPosition {

    private long scn;
    private volatile long published;

    /** The snapshot cursor to send; null when no snapshot runs. */
    private String snapshot;

    /** Parts of the transaction after {@link #scn} taken into the buffer; 0 outside one. */
    private int parts;

    /** The restart epoch of the entries published now ({@link ConsumerBuffer#requestRestart}). */
    private int epoch;

    /**
     * @param startScn the checkpoint to continue after, -1 for the oldest the relay holds
     * @param startSnapshot the snapshot cursor to continue with, or null
     */
    StreamPosition(long startScn, String startSnapshot) {
        this.scn = startScn;
        this.published = startScn;
        this.snapshot = startSnapshot;
    }

    /** The checkpoint the next request asks from. */
    long scn() {
        return scn;
    }

    /** {@link #scn()}, for other threads. */
    long published() {
        return published;
    }

    /** The snapshot cursor to send; null when no snapshot runs. */
    String snapshot() {
        return snapshot;
    }

    /** Parts of the transaction after {@link #scn()} taken into the buffer; 0 outside one. */
    int parts() {
        return parts;
    }

    /** The restart epoch of the entries published now. */
    int epoch() {
        return epoch;
    }

    /** Takes the dispatcher's request to fetch again from its checkpoint, if there is one. */
    void restartIfAsked(ConsumerBuffer buffer) {
        ConsumerBuffer.Restart restart = buffer.takeRestart();
        if (restart != null) {
            scn = restart.scn();
            published = scn;
            snapshot = restart.snapshot();
            parts = 0;
            epoch = restart.epoch();
        }
    }

    /** A relay asked afresh sends the transaction in parts from its start: none is held. */
    void dropParts() {
        parts = 0;
    }

    /** {@code bootstrap.onTooOld: snapshot}: a snapshot begins at the relay's newest SCN. */
    void beginSnapshot() {
        scn = -1;
        snapshot = SnapshotCursor.START;
    }

    /**
     * An answer was taken into the buffer.
     *
     * @param lastScn the checkpoint after it
     * @param snapshotAfter the snapshot cursor after it, null once no snapshot runs
     * @param heldParts the parts held of a transaction in parts it ended inside, else 0
     */
    void took(long lastScn, String snapshotAfter, int heldParts) {
        scn = lastScn;
        published = lastScn;
        snapshot = snapshotAfter;
        parts = heldParts;
    }
}
