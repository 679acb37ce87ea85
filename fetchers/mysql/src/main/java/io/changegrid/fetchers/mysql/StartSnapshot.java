package io.changegrid.fetchers.mysql;

import io.changegrid.fetchers.mysql.schema.InformationSchemaReader;
import io.changegrid.fetchers.mysql.schema.SchemaSnapshot;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schemas of every table and the binlog position they belong to, for a relay that starts
 * without a saved position. Taken under {@code FLUSH TABLES WITH READ LOCK} (held for the few
 * milliseconds the reads take) so no DDL slips in between the position and the schemas; without the
 * RELOAD privilege it is taken unlocked, with a warning.
 *
 * @param position where reading starts
 * @param snapshot the schemas at that position (at the current end for {@code earliest}, which the
 *     DDL replayed from the binlog then corrects)
 */
record StartSnapshot(BinlogPosition position, SchemaSnapshot snapshot) {

    private static final Logger LOG = LoggerFactory.getLogger(StartSnapshot.class);

    static StartSnapshot take(Connection connection, StartPosition start) throws SQLException {
        boolean locked = lock(connection);
        try {
            BinlogPosition position =
                    start instanceof StartPosition.At at
                            ? at.position()
                            : start instanceof StartPosition.Earliest
                                    ? oldestHeld(connection)
                                    : currentEnd(connection);
            SchemaSnapshot snapshot = new InformationSchemaReader().read(connection);
            LOG.info(
                    "schema snapshot taken: position={}, tables={}, locked={}",
                    position,
                    snapshot.tables().size(),
                    locked);
            return new StartSnapshot(position, snapshot);
        } finally {
            if (locked) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("UNLOCK TABLES");
                }
            }
        }
    }

    private static boolean lock(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("FLUSH TABLES WITH READ LOCK");
            return true;
        } catch (SQLException e) {
            LOG.warn(
                    "schema snapshot taken without a read lock (needs RELOAD): DDL running right now could"
                            + " be missed; reason={}",
                    e.getMessage());
            return false;
        }
    }

    private static BinlogPosition currentEnd(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW MASTER STATUS")) {
            if (!rows.next()) {
                throw new FetchFailedException(
                        "the source reports no binlog position (SHOW MASTER STATUS is"
                                + " empty): is log_bin on?");
            }
            return new BinlogPosition(rows.getString("File"), rows.getLong("Position"));
        }
    }

    private static BinlogPosition oldestHeld(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW BINARY LOGS")) {
            if (!rows.next()) {
                throw new FetchFailedException(
                        "the source holds no binlog files (SHOW BINARY LOGS is empty)");
            }
            return new BinlogPosition(rows.getString(1), 4);
        }
    }
}
