package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.checkpoint.FencedException;
import io.changegrid.appliers.checkpoint.SnapshotMark;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The consumer's checkpoint as the target holds it: {@link #load} is the lowest lane's SCN, so a
 * consumer resumes where the least advanced lane stopped (the others skip what they applied).
 *
 * <p>{@link #save} writes only what no lane wrote yet. After a batch every lane has committed its
 * checkpoint row with its rows, in one target transaction, at the SCN the consumer saves next: that
 * row is the one record, and {@code save} writes nothing. Only a checkpoint that carried no rows
 * (heartbeats, left-out transactions) moves the lanes here, fenced by the epoch like every
 * checkpoint write. What the lanes hold is read from the applier: a lane's SCN there is never ahead
 * of its row in the target (it moves after the commit), so a skipped write is never a lost one.
 *
 * <p>The snapshot cursor (docs/bootstrap.md) is kept the same way: every lane's row holds it with
 * its SCN ({@link SnapshotMark}), written by the commit of the chunk's rows; a load resumes with
 * the lowest lane's, and a cursor that moved without rows is written on every lane here, in one
 * statement with the SCN.
 *
 * <p>The relays' timeline (docs/consumer.md, "When the source server changes") is kept in the same
 * rows ({@link CheckpointTable#timeline}): one a consumer learns is written on every lane by the
 * next save, fenced like the SCN, so a restarted consumer refuses a relay on another timeline with
 * the saved value.
 *
 * <p>Threading: as {@link CheckpointStore} says; its own connection, opened on first use. {@link
 * #adoptTimeline} may come from the puller's thread: it only hands the value to the next save.
 */
final class TargetCheckpointStore implements CheckpointStore {

    private final TargetConnections connections;
    private final CheckpointTable checkpoints;
    private final int lanes;
    private final LongSupplier epoch;
    private final LongSupplier committed;
    private final Supplier<SnapshotMark> mark;
    private final Consumer<SnapshotMark> marked;
    private Connection connection;

    /** A timeline learnt from the relays and not yet written; set by the puller's thread. */
    private volatile String adopted;

    /**
     * @param epoch the owner's epoch, carried by every write
     * @param committed the lowest SCN every lane committed, as the applier last wrote or read it;
     *     -1 while it holds no lanes
     * @param mark the snapshot mark the lanes last committed or will commit next
     * @param marked told of a mark written here, for the lanes' next commits
     */
    TargetCheckpointStore(
            TargetConnections connections,
            CheckpointTable checkpoints,
            int lanes,
            LongSupplier epoch,
            LongSupplier committed,
            Supplier<SnapshotMark> mark,
            Consumer<SnapshotMark> marked) {
        this.mark = mark;
        this.marked = marked;
        this.connections = connections;
        this.checkpoints = checkpoints;
        this.lanes = lanes;
        this.epoch = epoch;
        this.committed = committed;
    }

    @Override
    public synchronized OptionalLong load() throws IOException {
        try {
            return checkpoints.resumeScn(connection());
        } catch (SQLException e) {
            drop();
            throw new IOException("target checkpoint not readable: " + this + ", error=" + e, e);
        }
    }

    @Override
    public synchronized Optional<Checkpoint> loadCheckpoint() throws IOException {
        try {
            OptionalLong scn = checkpoints.resumeScn(connection());
            SnapshotMark resume = checkpoints.resumeMark(connection());
            if (scn.isEmpty() && resume.cursor() == null) {
                return Optional.empty();
            }
            return Optional.of(new Checkpoint(scn.orElse(-1), resume.cursor()));
        } catch (SQLException e) {
            drop();
            throw new IOException("target checkpoint not readable: " + this + ", error=" + e, e);
        }
    }

    @Override
    public synchronized Optional<String> loadTimeline() throws IOException {
        try {
            return checkpoints.timeline(connection());
        } catch (SQLException e) {
            drop();
            throw new IOException(
                    "target checkpoint timeline not readable: " + this + ", error=" + e, e);
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public void adoptTimeline(String timeline) {
        adopted = timeline;
    }

    @Override
    public synchronized void save(long scn) throws IOException {
        save(new Checkpoint(scn, mark.get().cursor()));
    }

    /**
     * Moves every lane to the checkpoint's SCN and cursor, unless every lane's commit already did.
     *
     * @throws IOException if the target could not be written, or a newer owner holds the lanes
     */
    @Override
    public synchronized void save(Checkpoint checkpoint) throws IOException {
        long scn = checkpoint.scn();
        saveAdoptedTimeline();
        SnapshotMark current = mark.get();
        SnapshotMark next = current.movedTo(checkpoint.snapshot());
        if (committed.getAsLong() >= scn && next == current) {
            return;
        }
        try {
            checkpoints.advanceAll(
                    connection(), lanes, scn, next == current ? null : next, epoch.getAsLong());
            marked.accept(next);
        } catch (SQLException e) {
            drop();
            throw new IOException(
                    "target checkpoint not saved: scn=" + scn + ", " + this + ", error=" + e, e);
        } catch (FencedException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Writes a timeline learnt since the last save on every lane, once. */
    private void saveAdoptedTimeline() throws IOException {
        String timeline = adopted;
        if (timeline == null) {
            return;
        }
        try {
            checkpoints.saveTimeline(connection(), lanes, timeline, epoch.getAsLong());
            adopted = null;
        } catch (SQLException e) {
            drop();
            throw new IOException(
                    "target checkpoint timeline not saved: timeline="
                            + timeline
                            + ", "
                            + this
                            + ", error="
                            + e,
                    e);
        } catch (FencedException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return true;
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = connections.open();
        }
        return connection;
    }

    private void drop() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // The connection failed already; a new one is opened on next use.
            }
            connection = null;
        }
    }

    @Override
    public String toString() {
        return "target checkpoint[group="
                + checkpoints.group()
                + ", partition="
                + checkpoints.partition()
                + ", lanes="
                + lanes
                + "]";
    }
}
