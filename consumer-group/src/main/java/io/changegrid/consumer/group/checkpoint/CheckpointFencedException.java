package io.changegrid.consumer.group.checkpoint;

import java.io.IOException;

/**
 * A checkpoint save refused because another member took the partition over: its ownership epoch is
 * larger than the saver's. The saver lost the partition (its session expired, it paused past the
 * session timeout, the network cut it off) and must stop without committing anything more; the new
 * owner continues from the last checkpoint saved under the old epoch.
 */
public final class CheckpointFencedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int partition;
    private final long epoch;
    private final long currentEpoch;

    public CheckpointFencedException(
            String path, int partition, long epoch, long currentEpoch, String currentOwner) {
        super(
                "checkpoint fenced, the partition has a newer owner: path="
                        + path
                        + ", partition="
                        + partition
                        + ", epoch="
                        + epoch
                        + ", currentEpoch="
                        + currentEpoch
                        + ", currentOwner="
                        + currentOwner);
        this.partition = partition;
        this.epoch = epoch;
        this.currentEpoch = currentEpoch;
    }

    public int partition() {
        return partition;
    }

    /** The epoch of the refused saver. */
    public long epoch() {
        return epoch;
    }

    /** The epoch of the partition's current owner. */
    public long currentEpoch() {
        return currentEpoch;
    }
}
