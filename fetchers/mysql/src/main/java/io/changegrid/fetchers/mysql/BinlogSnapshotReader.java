package io.changegrid.fetchers.mysql;

import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.KeyRangeQuery;
import io.changegrid.fetchers.SnapshotReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot reads of a MariaDB or MySQL source (docs/bootstrap.md): the watermark is the binlog's
 * end ({@code SHOW MASTER STATUS}) as an SCN, {@code fileNumber << 32 | position}, on the scale of
 * the fetcher's SCNs ({@link BinlogPosition#scn()}: a transaction's SCN is the position of its
 * first event, so everything already in the binlog lies below the watermark); chunks are autocommit
 * key-range {@code SELECT}s. Needs {@code SELECT} and the privilege to ask the binlog's position,
 * which the fetcher needs anyway; writes nothing, locks nothing. On a GTID timeline ({@code
 * source.resume: gtid}) the watermark comes from {@code @@gtid_binlog_pos} instead ({@link
 * GtidTimeline}).
 *
 * <p>Threading: one caller at a time.
 */
final class BinlogSnapshotReader implements SnapshotReader {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogSnapshotReader.class);

    private static final KeyRangeQuery.Dialect DIALECT =
            new KeyRangeQuery.Dialect() {
                @Override
                public String quote(String identifier) {
                    return "`" + identifier.replace("`", "``") + "`";
                }

                @Override
                public String placeholder(TableSchema table, int k) {
                    return "?";
                }

                @Override
                public boolean rowValueRanges() {
                    return false;
                }
            };

    private final BinlogFetcherConfig config;
    private Connection connection;

    BinlogSnapshotReader(BinlogFetcherConfig config) {
        this.config = config;
    }

    @Override
    public long watermark() throws SQLException {
        if (config.resume() == ResumeMode.GTID) {
            return gtidWatermark();
        }
        try (Statement statement = connection().createStatement();
                ResultSet rows = statement.executeQuery("SHOW MASTER STATUS")) {
            if (!rows.next()) {
                throw new SQLException(
                        "no binlog position: SHOW MASTER STATUS is empty (log_bin off?): source="
                                + config.host()
                                + ":"
                                + config.port());
            }
            return new BinlogPosition(rows.getString("File"), rows.getLong("Position")).scn();
        }
    }

    /**
     * On a GTID timeline: just below the SCN of the transaction after the binlog's last GTID
     * ({@code @@gtid_binlog_pos}), so everything already in the binlog lies below it.
     */
    private long gtidWatermark() throws SQLException {
        try (Statement statement = connection().createStatement();
                ResultSet rows = statement.executeQuery("SELECT @@gtid_binlog_pos")) {
            rows.next();
            String gtid = rows.getString(1);
            if (gtid == null || gtid.isEmpty()) {
                return GtidTimeline.scnOf(1) - 1;
            }
            if (gtid.contains(",")) {
                throw new SQLException(
                        "several GTID domains in the binlog, a GTID timeline carries one:"
                                + " gtidBinlogPos="
                                + gtid);
            }
            return GtidTimeline.scnOf(GtidTimeline.MariaGtid.parse(gtid).sequence() + 1) - 1;
        }
    }

    @Override
    public List<Object[]> readChunk(TableSchema table, Object[] afterKey, int limit)
            throws SQLException {
        KeyRangeQuery query = KeyRangeQuery.of(table, DIALECT, afterKey == null, limit);
        List<Object[]> chunk = new ArrayList<>(Math.min(limit, 4096));
        try (PreparedStatement statement = connection().prepareStatement(query.sql())) {
            List<Integer> parameters = query.parameters();
            for (int p = 0; p < parameters.size(); p++) {
                int k = parameters.get(p);
                SnapshotValues.bind(statement, p + 1, table.column(table.keyIndex(k)), afterKey[k]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Object[] row = new Object[table.columnCount()];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = SnapshotValues.read(rows, i, table, table.column(i));
                    }
                    chunk.add(row);
                }
            }
        } catch (SQLException e) {
            close(); // a broken connection is opened afresh by the next call
            throw new SQLException(
                    "snapshot chunk not read: table="
                            + table.qualifiedName()
                            + ", sql="
                            + query.sql(),
                    e);
        }
        return chunk;
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            Properties properties = new Properties();
            properties.setProperty("user", config.user());
            properties.setProperty("password", config.password());
            properties.setProperty(
                    "connectTimeout", Long.toString(config.connectTimeout().toMillis()));
            Connection opened = DriverManager.getConnection(config.jdbcUrl(), properties);
            try (Statement statement = opened.createStatement()) {
                // TIMESTAMP text in UTC is its instant (SnapshotValues); a read-only session can
                // never write to the source by mistake.
                statement.execute("SET SESSION time_zone = '+00:00'");
                statement.execute("SET SESSION TRANSACTION READ ONLY");
            } catch (SQLException e) {
                opened.close();
                throw e;
            }
            opened.setAutoCommit(true);
            connection = opened;
        }
        return connection;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("snapshot connection did not close cleanly; it is dropped anyway", e);
            }
            connection = null;
        }
    }
}
