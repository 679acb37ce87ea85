package io.changegrid.fetchers.logminer.standin;

import io.changegrid.fetchers.logminer.mining.MiningStatements;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The Oracle-only statements as the PostgreSQL stand-in answers them. The function names are the
 * contract with grid-kit's {@code LogMinerStandIn}, which creates them:
 *
 * <ul>
 *   <li>{@code dbms_logmnr_start_logmnr(start, end)} opens the session's window: {@code
 *       v$logmnr_contents} shows the rows of {@code [start, end]} from then on, and raises an error
 *       (as Oracle's ORA-01306) without a session;
 *   <li>{@code dbms_logmnr_end_logmnr()} closes it;
 *   <li>the current SCN is read with Oracle's own query, from the stand-in's {@code v$database}.
 * </ul>
 *
 * The stand-in holds no log files, so none are added; the session's time zone is UTC, as the Oracle
 * statements set it.
 */
public final class StandInMiningStatements implements MiningStatements {

    static final String TIME_ZONE = "SET TIME ZONE 'UTC'";
    static final String CURRENT_SCN = "SELECT CURRENT_SCN FROM V$DATABASE";
    static final String START = "SELECT dbms_logmnr_start_logmnr(?, ?)";
    static final String END = "SELECT dbms_logmnr_end_logmnr()";

    @Override
    public void prepareSession(Connection connection) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute(TIME_ZONE);
        }
    }

    @Override
    public long currentScn(Connection connection) throws SQLException {
        try (var statement = connection.prepareStatement(CURRENT_SCN);
                var rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("v$database returned no row");
            }
            return rows.getLong(1);
        }
    }

    @Override
    public void startSession(Connection connection, long startScn, long endScn)
            throws SQLException {
        try (var statement = connection.prepareStatement(START)) {
            statement.setLong(1, startScn);
            statement.setLong(2, endScn);
            statement.execute();
        }
    }

    @Override
    public void endSession(Connection connection) throws SQLException {
        try (var statement = connection.prepareStatement(END)) {
            statement.execute();
        }
    }
}
