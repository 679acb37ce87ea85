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
 * consumer resumes where the least advanced lane stopped (the others skip what they applied);
 * {@link #save} moves every lane forward to a checkpoint that carried no rows (heartbeats, left-out
 * transactions), fenced by the epoch like every checkpoint write. After a batch, the applier has
 * already written that checkpoint with the rows, and {@code save} changes nothing.
 *
 * <p>Threading: as {@link CheckpointStore} says; its own connection, opened on first use.
 */
final class TargetCheckpointStore implements CheckpointStore {

    private final TargetConnections connections;
    private final CheckpointTable checkpoints;
    private final int lanes;
    private final LongSupplier epoch;
    private Connection connection;

    TargetCheckpointStore(
            TargetConnections connections,
            CheckpointTable checkpoints,
            int lanes,
            LongSupplier epoch) {
        this.connections = connections;
        this.checkpoints = checkpoints;
        this.lanes = lanes;
        this.epoch = epoch;
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
    public synchronized void save(long scn) throws IOException {
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
