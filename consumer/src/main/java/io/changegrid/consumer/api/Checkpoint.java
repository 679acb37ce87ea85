package io.changegrid.consumer.api;

/**
 * A consumer's checkpoint: the SCN of the last transaction (or heartbeat) its callback fully
 * processed, and, while a snapshot runs (docs/bootstrap.md), the snapshot cursor of the last chunk
 * it processed. The two are one record: a store saves them together, atomically, so a restarted
 * consumer continues the live stream and the snapshot from the same point. An immutable value.
 *
 * @param scn the checkpoint SCN; -1 for none yet (only with a snapshot just begun)
 * @param snapshot the snapshot cursor to continue with ({@code start}, or the opaque text a relay
 *     gave), or {@code null} when no snapshot is in progress (never begun, or complete)
 */
public record Checkpoint(long scn, String snapshot) {

    public Checkpoint {
        if (snapshot != null && snapshot.isBlank()) {
            throw new IllegalArgumentException("snapshot cursor must not be blank: scn=" + scn);
        }
    }

    /** A checkpoint of the live stream only. */
    public static Checkpoint at(long scn) {
        return new Checkpoint(scn, null);
    }

    /** Whether a snapshot is in progress at this checkpoint. */
    public boolean inSnapshot() {
        return snapshot != null;
    }

    @Override
    public String toString() {
        return snapshot == null ? Long.toString(scn) : scn + " snapshot=" + snapshot;
    }
}
