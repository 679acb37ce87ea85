package io.changegrid.appliers.checkpoint;

/**
 * The checkpoint row carries a newer ownership epoch than this applier's: another consumer owns the
 * partition now, so this one's batch was rolled back and must not be retried.
 */
public final class FencedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public FencedException(String group, int partition, int lane, long epoch) {
        super(
                "fenced: a newer owner wrote the checkpoint, batch rolled back: group="
                        + group
                        + ", partition="
                        + partition
                        + ", lane="
                        + lane
                        + ", epoch="
                        + epoch);
    }
}
