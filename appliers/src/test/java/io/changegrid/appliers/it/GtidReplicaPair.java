package io.changegrid.appliers.it;

import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.ReplicationGrants;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.awaitility.Awaitility;

/**
 * Two private mariadbd in GTID replication: a primary (server id 1) and a replica (server id 2)
 * that replicates it with {@code MASTER_USE_GTID=slave_pos}, both with {@code log_slave_updates}
 * (the replica's binlog holds the primary's transactions with their GTIDs, which a relay following
 * it by GTID needs) and {@code gtid_strict_mode}; and the operator's steps of a failover: wait for
 * the replica, promote it.
 */
final class GtidReplicaPair implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(60);

    final MariaDbServer primary;
    final MariaDbServer replica;

    private GtidReplicaPair(MariaDbServer primary, MariaDbServer replica) {
        this.primary = primary;
        this.replica = replica;
    }

    /** Starts both servers and replication between them. */
    static GtidReplicaPair start() throws SQLException {
        MariaDbServer primary = MariaDbServer.start(config(1));
        MariaDbServer replica;
        try {
            replica = MariaDbServer.start(config(2));
        } catch (RuntimeException e) {
            primary.close();
            throw e;
        }
        GtidReplicaPair pair = new GtidReplicaPair(primary, replica);
        try {
            pair.replicate();
        } catch (SQLException | RuntimeException e) {
            pair.close();
            throw e;
        }
        return pair;
    }

    private static MariaDbConfig config(long serverId) {
        return MariaDbConfig.builder()
                .serverId(serverId)
                .extraOption("--log-slave-updates=ON")
                .extraOption("--gtid-strict-mode=ON")
                .build();
    }

    /**
     * The replica starts where the primary is now: its own start (its users) is dropped from its
     * binlog, which then continues the primary's GTID state, so that a relay can ask it for any
     * GTID the primary wrote from here on.
     */
    private void replicate() throws SQLException {
        String position = gtidBinlogPos(primary);
        replica.execute(
                "RESET MASTER",
                "SET GLOBAL gtid_binlog_state = '" + position + "'",
                "SET GLOBAL gtid_slave_pos = '" + position + "'",
                "CHANGE MASTER TO MASTER_HOST='"
                        + primary.host()
                        + "', MASTER_PORT="
                        + primary.port()
                        + ", MASTER_USER='"
                        + ReplicationGrants.USER
                        + "', MASTER_PASSWORD='"
                        + ReplicationGrants.PASSWORD
                        + "', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos",
                "START SLAVE");
    }

    /** Waits until the replica applied every transaction the primary's binlog holds now. */
    void awaitReplicaCaughtUp() throws SQLException {
        String position = gtidBinlogPos(primary);
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> GtidPositions.covers(gtidSlavePos(replica), position));
    }

    /**
     * Promotes the replica after its primary died: waits until it applied everything it received
     * ({@code Gtid_IO_Pos}), then stops replicating, as an operator (or MaxScale) does.
     */
    void promoteReplicaAfterCrash() throws SQLException {
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> GtidPositions.covers(gtidSlavePos(replica), gtidIoPos(replica)));
        promote();
    }

    /** Promotes a caught-up replica: it stops replicating and takes writes. */
    void promote() throws SQLException {
        replica.execute("STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF");
    }

    static String gtidBinlogPos(MariaDbServer server) throws SQLException {
        return string(server, "SELECT @@gtid_binlog_pos");
    }

    static String gtidSlavePos(MariaDbServer server) throws SQLException {
        return string(server, "SELECT @@gtid_slave_pos");
    }

    private static String gtidIoPos(MariaDbServer server) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW SLAVE STATUS")) {
            return rows.next() ? rows.getString("Gtid_IO_Pos") : "";
        }
    }

    private static String string(MariaDbServer server, String sql) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            String value = rows.getString(1);
            return value == null ? "" : value;
        }
    }

    @Override
    public void close() {
        try {
            replica.close();
        } finally {
            primary.close();
        }
    }

    /** Comparisons of single-domain MariaDB GTID positions, {@code domain-server-seq}. */
    static final class GtidPositions {

        private GtidPositions() {}

        /** Whether {@code position} includes {@code wanted}: its sequence number is as high. */
        static boolean covers(String position, String wanted) {
            return sequence(position) >= sequence(wanted);
        }

        /** The sequence number of a one-domain position; 0 when empty. */
        static long sequence(String position) {
            if (position == null || position.isEmpty()) {
                return 0;
            }
            if (position.contains(",")) {
                throw new IllegalArgumentException("more than one domain: position=" + position);
            }
            return Long.parseLong(position.substring(position.lastIndexOf('-') + 1));
        }
    }
}
