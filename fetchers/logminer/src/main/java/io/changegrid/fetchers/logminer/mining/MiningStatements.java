package io.changegrid.fetchers.logminer.mining;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The seam around what only Oracle runs: everything else the fetcher says to the database is plain
 * SQL on Oracle's dictionary and {@code V$} views. {@link OracleMiningStatements} is the real one;
 * {@link io.changegrid.fetchers.logminer.standin.StandInMiningStatements} lets the same fetcher run
 * against the PostgreSQL stand-in the tests and the bench use.
 *
 * <p>Threading: the fetcher's thread, on the fetcher's connection.
 */
public interface MiningStatements {

    /** Prepares a new connection for mining (session formats, time zone). */
    void prepareSession(Connection connection) throws SQLException;

    /** The database's current SCN: no window goes beyond it. */
    long currentScn(Connection connection) throws SQLException;

    /**
     * Starts a LogMiner session over {@code [startScn, endScn]}: adds the log files that hold the
     * range, then starts mining with the online catalog as dictionary. Rows of {@code
     * V$LOGMNR_CONTENTS} are visible only until {@link #endSession}.
     */
    void startSession(Connection connection, long startScn, long endScn) throws SQLException;

    /** Ends the session {@link #startSession} started. */
    void endSession(Connection connection) throws SQLException;
}
