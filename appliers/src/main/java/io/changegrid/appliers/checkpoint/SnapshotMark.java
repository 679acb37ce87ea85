package io.changegrid.appliers.checkpoint;

/**
 * The snapshot cursor a lane's checkpoint row holds with its SCN (docs/bootstrap.md), written in
 * the same target transaction as the snapshot rows it covers, and its sequence: raised by one each
 * time the cursor moves, so that of two lanes at the same SCN the one whose commit of a later chunk
 * did not happen (a crash between lanes' commits) is known. The consumer resumes with the cursor of
 * the lowest lane by (SCN, sequence): a chunk applied again is re-read by the relay and applied as
 * upserts, which converges; a chunk skipped would lose rows.
 *
 * @param cursor the snapshot cursor, or null when no snapshot runs
 * @param sequence how many times the cursor moved; 0 before the first
 */
public record SnapshotMark(String cursor, long sequence) {

    /** No snapshot, ever. */
    public static final SnapshotMark NONE = new SnapshotMark(null, 0);

    /** The mark after the cursor moved to {@code next}; this one if it did not move. */
    public SnapshotMark movedTo(String next) {
        return java.util.Objects.equals(cursor, next) ? this : new SnapshotMark(next, sequence + 1);
    }

    /** Whether this mark is behind {@code other} at the same SCN. */
    public boolean before(SnapshotMark other) {
        return sequence < other.sequence;
    }
}
