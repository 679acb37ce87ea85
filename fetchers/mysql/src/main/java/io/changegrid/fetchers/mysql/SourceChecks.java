package io.changegrid.fetchers.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, before the first binlog byte is read, that the source can be captured row by row: the
 * binlog is on and ROW-based, the user may replicate, and our server id does not clash. Every
 * problem is reported at once, each naming the setting and what to do. Row images must be full: a
 * column left out of an image cannot be told from a NULL.
 */
final class SourceChecks {

    private static final Logger LOG = LoggerFactory.getLogger(SourceChecks.class);

    private SourceChecks() {}

    /**
     * Runs the checks.
     *
     * @param serverId the server id this fetcher will connect with
     * @throws FetchFailedException listing every problem found
     */
    static void run(Connection connection, long serverId) throws SQLException {
        List<String> problems = new ArrayList<>();
        String logBin = variable(connection, "log_bin");
        if (!"ON".equalsIgnoreCase(logBin) && !"1".equals(logBin)) {
            problems.add(
                    "binary log is off: log_bin="
                            + logBin
                            + "; start the server with log_bin (and binlog_format=ROW)");
        }
        String format = variable(connection, "binlog_format");
        if (!"ROW".equalsIgnoreCase(format)) {
            problems.add(
                    "binlog_format must be ROW: binlog_format="
                            + format
                            + "; set binlog_format=ROW in the server configuration (SET GLOBAL affects only"
                            + " new sessions) — row changes cannot be captured from "
                            + format
                            + " events");
        }
        String rowImage = variable(connection, "binlog_row_image");
        if (rowImage != null && !"FULL".equalsIgnoreCase(rowImage)) {
            // A column the server leaves out of an image would reach consumers as NULL, which no
            // one downstream can tell from a real NULL: an applier would write it over the target's
            // value. Refusing loses nothing; capturing would.
            problems.add(
                    "binlog_row_image must be FULL: binlog_row_image="
                            + rowImage
                            + "; with it the server leaves "
                            + ("MINIMAL".equalsIgnoreCase(rowImage)
                                    ? "before-image columns other than the key and after-image columns that did not change"
                                    : "unchanged BLOB and TEXT columns")
                            + " out of row images, and they would arrive as NULL; set binlog_row_image=FULL"
                            + " in the server configuration (SET GLOBAL affects only new sessions)");
        }
        long sourceServerId = Long.parseLong(variable(connection, "server_id"));
        if (sourceServerId == serverId) {
            problems.add(
                    "server_id clash: the source's server_id is "
                            + sourceServerId
                            + ", the same as this fetcher's serverId; give the fetcher a unique serverId");
        }
        String grants = grants(connection);
        if (grants.contains("REPLICATION MASTER ADMIN")
                || grants.contains("SUPER")
                || grants.contains("ALL PRIVILEGES ON *.*")) {
            // Only users who may look at the replica list get it checked; asking without the
            // privilege is an error the driver logs loudly.
            replicaWithSameId(connection, serverId, problems);
        }
        privileges(grants, problems);
        if (!problems.isEmpty()) {
            throw new FetchFailedException(
                    "source cannot be captured: " + String.join("; and ", problems));
        }
    }

    private static void replicaWithSameId(
            Connection connection, long serverId, List<String> problems) {
        try (Statement statement = connection.createStatement();
                ResultSet hosts = statement.executeQuery("SHOW SLAVE HOSTS")) {
            while (hosts.next()) {
                if (hosts.getLong("Server_id") == serverId) {
                    problems.add(
                            "server_id clash: a replica with server_id "
                                    + serverId
                                    + " is already connected (SHOW SLAVE HOSTS); give the fetcher a unique serverId");
                }
            }
        } catch (SQLException e) {
            // Needs REPLICATION MASTER ADMIN on newer MariaDB: not being allowed to look is no
            // error.
            LOG.debug(
                    "SHOW SLAVE HOSTS not allowed, replica server ids not checked: {}",
                    e.getMessage());
        }
    }

    private static String grants(Connection connection) throws SQLException {
        StringBuilder grants = new StringBuilder();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW GRANTS")) {
            while (rows.next()) {
                grants.append(rows.getString(1).toUpperCase(Locale.ROOT)).append('\n');
            }
        }
        return grants.toString();
    }

    private static void privileges(String text, List<String> problems) {
        boolean all = text.contains("ALL PRIVILEGES ON *.*");
        if (!all && !text.contains("REPLICATION SLAVE") && !text.contains("REPLICATION REPLICA")) {
            problems.add(
                    "missing privilege REPLICATION SLAVE: GRANT REPLICATION SLAVE ON *.* TO the fetcher's user");
        }
        if (!all
                && !text.contains("REPLICATION CLIENT")
                && !text.contains("BINLOG MONITOR")
                && !text.contains("SUPER")) {
            problems.add(
                    "missing privilege REPLICATION CLIENT (BINLOG MONITOR on MariaDB): GRANT REPLICATION CLIENT ON *.* TO the fetcher's user");
        }
    }

    static String variable(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("SHOW GLOBAL VARIABLES LIKE '" + name + "'")) {
            return rows.next() ? rows.getString(2) : null;
        }
    }
}
