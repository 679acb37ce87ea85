package io.changegrid.fetchers.mysql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Where a new GTID timeline starts (MariaDB): the GTID of the last transaction before a binlog
 * position, and the replication domain the timeline carries.
 */
final class GtidStart {

    private GtidStart() {}

    /**
     * The GTID of the last transaction before {@code position} ({@code BINLOG_GTID_POS}), or empty
     * when there was none; the domain follows from it, or from {@code @@gtid_domain_id}.
     *
     * @throws FetchFailedException if the binlog holds GTIDs of several domains
     */
    static ResumePosition at(Connection connection, BinlogPosition position, SourceIdentity server)
            throws SQLException {
        String gtid;
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            statement.setString(1, position.file());
            statement.setLong(2, position.offset());
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                gtid = rows.getString(1);
            }
        }
        if (gtid == null) {
            throw new FetchFailedException(
                    "the source has no GTID position for the start position: position="
                            + position
                            + ", server="
                            + server);
        }
        if (gtid.contains(",")) {
            throw new FetchFailedException(
                    "source.resume: gtid needs a source with one GTID replication domain: position="
                            + position
                            + ", gtidPosition="
                            + gtid
                            + "; sequence numbers of several domains do not order one timeline"
                            + " (docs/event-format.md)");
        }
        long domain =
                gtid.isEmpty() ? domainId(connection) : GtidTimeline.MariaGtid.parse(gtid).domain();
        return new ResumePosition(position, gtid, new GtidTimeline(domain), server);
    }

    private static long domainId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT @@gtid_domain_id")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
