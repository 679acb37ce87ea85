package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.checkpoint.FencedException;
import io.changegrid.consumer.api.CheckpointStore;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

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
 * <p>Threading: as {@link CheckpointStore} says; its own connection, opened on first use.
 */
final class TargetCheckpointStore implements CheckpointStore {

    private final TargetConnections connections;
    private final CheckpointTable checkpoints;
    private final int lanes;
    private final LongSupplier epoch;
    private final LongSupplier committed;
    private Connection connection;

    /**
     * @param epoch the owner's epoch, carried by every write
     * @param committed the lowest SCN every lane committed, as the applier last wrote or read it;
     *     -1 while it holds no lanes
     */
    TargetCheckpointStore(
            TargetConnections connections,
            CheckpointTable checkpoints,
            int lanes,
            LongSupplier epoch,
            LongSupplier committed) {
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

    /**
     * Moves every lane to {@code scn}, unless every lane's commit already did.
     *
     * @throws IOException if the target could not be written, or a newer owner holds the lanes
     */
    @Override
    public synchronized void save(long scn) throws IOException {
        if (committed.getAsLong() >= scn) {
            return;
        }
        try {
            checkpoints.advanceAll(connection(), lanes, scn, epoch.getAsLong());
        } catch (SQLException e) {
            drop();
            throw new IOException(
                    "target checkpoint not saved: scn=" + scn + ", " + this + ", error=" + e, e);
        } catch (FencedException e) {
            throw new IOException(e.getMessage(), e);
        }
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
