package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.Committer;
import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.checkpoint.LaneCheckpoint;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A commit round: every lane commits its rows with its checkpoint moved to one {@link
 * LaneCheckpoint}, under the owner's current epoch (the {@link Committer} runs the lanes in
 * parallel); and what the lanes hold between rounds (rows pending, the lowest checkpoint).
 *
 * <p>Threading: {@link #commitAll} and the lane queries on the consumer's dispatcher thread, which
 * waits while the committer's threads commit; the counters may be read from any thread.
 */
final class CommitRound implements AutoCloseable {

    private final Committer committer;
    private final LongSupplier epoch;

    private volatile long rowsApplied;
    private volatile long commits;

    CommitRound(int lanes, LongSupplier epoch) {
        this.committer = new Committer(lanes);
        this.epoch = epoch;
    }

    /**
     * Commits every lane up to {@code to}.
     *
     * @throws SQLException if a lane's commit failed (the others may have committed)
     */
    void commitAll(List<Lane> lanes, LaneCheckpoint to) throws SQLException {
        long before = 0;
        for (Lane lane : lanes) {
            before += lane.rowsWritten();
        }
        committer.commitAll(lanes, to, epoch.getAsLong());
        long after = 0;
        for (Lane lane : lanes) {
            after += lane.rowsWritten();
        }
        rowsApplied = rowsApplied + (after - before);
        commits = commits + 1;
    }

    /** Rows the lanes hold, not committed yet. */
    static int pendingRows(List<Lane> lanes) {
        int rows = 0;
        for (Lane lane : lanes) {
            rows += lane.pendingRows();
        }
        return rows;
    }

    /** The lowest lane checkpoint SCN: every transaction at or below it is in every lane. */
    static long lowestCheckpointScn(List<Lane> lanes) {
        long lowest = Long.MAX_VALUE;
        for (Lane lane : lanes) {
            lowest = Math.min(lowest, lane.checkpoint().scn());
        }
        return lanes.isEmpty() ? -1 : lowest;
    }

    /** Rows written to the target by the rounds so far (upserts and deletes after coalescing). */
    long rowsApplied() {
        return rowsApplied;
    }

    /** Rounds committed so far. */
    long commits() {
        return commits;
    }

    @Override
    public void close() {
        committer.close();
    }
}
