package io.changegrid.fetchers.postgresql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.replication.ReplicationSlotInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher's logical replication slot: created (pgoutput) when missing, and the position to read
 * from, never before the slot's confirmed-flush position (the server would silently skip to it,
 * losing what lies between).
 */
final class ReplicationSlot {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicationSlot.class);

    /**
     * What runs while a new slot's exported snapshot is valid: its replication connection open and
     * idle, the snapshot the database exactly at the slot's consistent point.
     */
    @FunctionalInterface
    interface AtConsistentPoint {
        void read(String snapshotName) throws SQLException;
    }

    private ReplicationSlot() {}

    /**
     * Where to start: the saved resume position, else the configured start. When the slot is
     * created here, {@code atStart} is handed its exported snapshot before anything else is sent on
     * the replication connection.
     *
     * @throws FetchFailedException if the slot no longer holds that position
     */
    static Lsn position(
            Connection connection,
            PostgresFetcherConfig config,
            String resumePosition,
            AtConsistentPoint atStart)
            throws SQLException {
        Lsn confirmed = confirmedFlush(connection, config.slot());
        if (confirmed == null) {
            if (resumePosition != null) {
                throw new FetchFailedException(
                        "replication slot is gone but the relay has a saved position: slot="
                                + config.slot()
                                + ", position="
                                + resumePosition
                                + "; the WAL since then is lost to this relay: clear its state, start afresh"
                                + " (source.start) and bootstrap its consumers");
            }
            Lsn created = create(config, atStart);
            if (config.start() instanceof StartPosition.At at && at.lsn().compareTo(created) != 0) {
                throw new FetchFailedException(
                        "a new slot starts at the current end of WAL, not at an earlier LSN: slot="
                                + config.slot()
                                + ", start="
                                + at.lsn()
                                + ", slotStart="
                                + created);
            }
            return created;
        }
        if (resumePosition != null) {
            return notBefore(Lsn.parse(resumePosition), confirmed, config);
        }
        if (config.start() instanceof StartPosition.At at) {
            return notBefore(at.lsn(), confirmed, config);
        }
        return config.start() instanceof StartPosition.Earliest
                ? confirmed
                : advanceToCurrent(connection, config.slot());
    }

    private static Lsn notBefore(Lsn wanted, Lsn confirmed, PostgresFetcherConfig config) {
        if (wanted.compareTo(confirmed) < 0) {
            throw new FetchFailedException(
                    "the slot no longer holds the start position: slot="
                            + config.slot()
                            + ", position="
                            + wanted
                            + ", confirmedFlush="
                            + confirmed
                            + "; clear the relay's state, start afresh (source.start) and bootstrap its consumers");
        }
        return wanted;
    }

    /**
     * Creates the slot over a replication connection ({@code replication=database}) and, while that
     * connection stays open and idle, hands its exported snapshot to {@code atStart}: the snapshot
     * lives only until the connection's next command or its close.
     */
    private static Lsn create(PostgresFetcherConfig config, AtConsistentPoint atStart)
            throws SQLException {
        try (Connection replication =
                DriverManager.getConnection(config.jdbcUrl(), config.properties(true))) {
            // pgjdbc sends CREATE_REPLICATION_SLOT <slot> LOGICAL pgoutput: without a snapshot
            // option the server exports one (EXPORT_SNAPSHOT, the default since PostgreSQL 10)
            // and returns its name; pgjdbc sends nothing more on the connection afterwards.
            ReplicationSlotInfo info =
                    replication
                            .unwrap(PGConnection.class)
                            .getReplicationAPI()
                            .createReplicationSlot()
                            .logical()
                            .withSlotName(config.slot())
                            .withOutputPlugin("pgoutput")
                            .make();
            Lsn start = new Lsn(info.getConsistentPoint().asLong());
            LOG.info(
                    "replication slot created: slot={}, consistentPoint={}, snapshot={}",
                    config.slot(),
                    start,
                    info.getSnapshotName());
            atStart.read(info.getSnapshotName());
            return start;
        }
    }

    private static Lsn advanceToCurrent(Connection connection, String slot) throws SQLException {
        try (var statement =
                connection.prepareStatement(
                        "SELECT pg_replication_slot_advance(?, pg_current_wal_lsn())")) {
            statement.setString(1, slot);
            statement.execute();
        }
        return confirmedFlush(connection, slot);
    }

    /** The slot's confirmed-flush position, or null when there is no such slot. */
    private static Lsn confirmedFlush(Connection connection, String slot) throws SQLException {
        try (var statement =
                connection.prepareStatement(
                        "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?")) {
            statement.setString(1, slot);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? Lsn.parse(rows.getString(1)) : null;
            }
        }
    }
}
