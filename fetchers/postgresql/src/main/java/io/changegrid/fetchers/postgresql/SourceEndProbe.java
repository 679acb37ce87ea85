package io.changegrid.fetchers.postgresql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * The source's current end of WAL, for the relay's lag figure: asked on its own connection, at most
 * once a second, from whatever thread asks (status requests).
 */
final class SourceEndProbe implements AutoCloseable {

    private static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final PostgresFetcherConfig config;
    private Connection connection;
    private long askedNanos = System.nanoTime() - MAX_AGE_NANOS;
    private long lsn = -1;

    SourceEndProbe(PostgresFetcherConfig config) {
        this.config = config;
    }

    /** The end of WAL, or -1 when the source cannot be asked right now. */
    synchronized long currentLsn() {
        if (System.nanoTime() - askedNanos < MAX_AGE_NANOS) {
            return lsn;
        }
        askedNanos = System.nanoTime();
        try {
            if (connection == null || connection.isClosed()) {
                connection =
                        DriverManager.getConnection(config.jdbcUrl(), config.properties(false));
            }
            try (var statement = connection.createStatement();
                    var rows = statement.executeQuery("SELECT pg_current_wal_lsn()::text")) {
                rows.next();
                lsn = Lsn.parse(rows.getString(1)).value();
            }
        } catch (SQLException e) {
            lsn = -1; // the status says "unknown"; the fetcher itself reports connection trouble
            close();
        }
        return lsn;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // Dropped anyway: a status probe's connection holds nothing.
            }
            connection = null;
        }
    }
}
