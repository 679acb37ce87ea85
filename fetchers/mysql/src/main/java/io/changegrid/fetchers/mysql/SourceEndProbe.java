package io.changegrid.fetchers.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the source's binlog ends now ({@code SHOW MASTER STATUS}), for the relay's lag in SCN.
 * Asked at most once per {@code minIntervalNanos} however often status is requested, so a busy
 * status page never loads the source; a failed probe answers empty and is retried later.
 *
 * <p>Thread-safe: status requests come from any HTTP thread.
 */
final class SourceEndProbe implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SourceEndProbe.class);

    private final BinlogFetcherConfig config;
    private final long minIntervalNanos;
    private Connection connection;
    private long probedNanos;
    private BinlogPosition end;

    SourceEndProbe(BinlogFetcherConfig config, long minIntervalNanos) {
        this.config = config;
        this.minIntervalNanos = minIntervalNanos;
    }

    synchronized Optional<BinlogPosition> end() {
        long now = System.nanoTime();
        if (end == null || now - probedNanos >= minIntervalNanos) {
            probedNanos = now;
            try {
                end = query();
            } catch (SQLException e) {
                LOG.debug("source end position not available: {}", e.getMessage());
                closeQuietly();
                end = null;
            }
        }
        return Optional.ofNullable(end);
    }

    private BinlogPosition query() throws SQLException {
        if (connection == null || !connection.isValid((int) TimeUnit.SECONDS.toSeconds(2))) {
            closeQuietly();
            connection = config.connect();
        }
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW MASTER STATUS")) {
            return rows.next()
                    ? new BinlogPosition(rows.getString("File"), rows.getLong("Position"))
                    : null;
        }
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("closing the probe connection failed; it is dropped anyway", e);
            }
            connection = null;
        }
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }
}
