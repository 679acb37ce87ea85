package io.changegrid.fetchers.mysql;

import io.changegrid.fetchers.SourceUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The fetcher's first connection, telling a server that cannot be reached now from one that refuses
 * the relay. SQLSTATE class {@code 08} (connection exception: refused, unknown host, timed out,
 * server shutting down, error 1053) passes by itself, so it is {@link SourceUnavailableException}
 * and the relay waits; anything else (access denied is {@code 28000}, a missing grant {@code
 * 42000}) is the server's answer and fails the start as it is.
 */
final class SourceReach {

    private SourceReach() {}

    /**
     * A connection to the source.
     *
     * @throws SourceUnavailableException if the server cannot be reached now
     * @throws SQLException if the server refused the connection
     */
    static Connection connect(BinlogFetcherConfig config)
            throws SQLException, SourceUnavailableException {
        try {
            return config.connect();
        } catch (SQLException e) {
            if (!unreachable(e)) {
                throw e;
            }
            throw new SourceUnavailableException(
                    "source unreachable: address="
                            + config.host()
                            + ":"
                            + config.port()
                            + ", sqlState="
                            + e.getSQLState()
                            + ", error="
                            + e.getMessage(),
                    e);
        }
    }

    /** Whether {@code e} says the server could not be reached, rather than what it answered. */
    static boolean unreachable(SQLException e) {
        String state = e.getSQLState();
        return state != null
                && state.startsWith("08")
                && e.getErrorCode() != 1045
                && e.getErrorCode() != 1044;
    }
}
