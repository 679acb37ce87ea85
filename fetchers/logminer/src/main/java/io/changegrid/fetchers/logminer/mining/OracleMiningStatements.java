package io.changegrid.fetchers.logminer.mining;

import io.changegrid.fetchers.logminer.schema.NlsFormats;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Oracle-only statements, as Oracle's {@code DBMS_LOGMNR} documentation gives them. Each text
 * is a constant, pinned by a unit test, since no Oracle runs in this project's CI.
 *
 * <ul>
 *   <li>The session's NLS formats make LogMiner render dates and timestamps in {@link NlsFormats}
 *       (LogMiner renders {@code SQL_REDO} with the mining session's settings) and its time zone
 *       UTC, so TIMESTAMP WITH LOCAL TIME ZONE values are read as UTC.
 *   <li>The log files of a window: archived logs that overlap it, and online logs not archived yet
 *       that overlap it (one member per group). The first is added with {@code NEW}, the others
 *       with {@code ADDFILE}.
 *   <li>{@code START_LOGMNR} with the online catalog as dictionary and without row ids in {@code
 *       SQL_REDO} (they come in {@code ROW_ID}); not {@code COMMITTED_DATA_ONLY}, which would make
 *       the database buffer whole transactions.
 * </ul>
 */
public final class OracleMiningStatements implements MiningStatements {

    static final List<String> SESSION =
            List.of(
                    "ALTER SESSION SET NLS_DATE_FORMAT = '" + NlsFormats.DATE + "'",
                    "ALTER SESSION SET NLS_TIMESTAMP_FORMAT = '" + NlsFormats.TIMESTAMP + "'",
                    "ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = '" + NlsFormats.TIMESTAMP_TZ + "'",
                    "ALTER SESSION SET NLS_NUMERIC_CHARACTERS = '.,'",
                    "ALTER SESSION SET TIME_ZONE = '+00:00'");
    static final String CURRENT_SCN = "SELECT CURRENT_SCN FROM V$DATABASE";
    static final String LOG_FILES =
            "SELECT NAME FROM V$ARCHIVED_LOG"
                    + " WHERE NAME IS NOT NULL AND STANDBY_DEST = 'NO' AND DELETED = 'NO'"
                    + " AND FIRST_CHANGE# <= ? AND NEXT_CHANGE# > ?"
                    + " UNION"
                    + " SELECT MIN(F.MEMBER) FROM V$LOG L JOIN V$LOGFILE F ON F.GROUP# = L.GROUP#"
                    + " WHERE L.ARCHIVED = 'NO' AND L.FIRST_CHANGE# <= ? AND L.NEXT_CHANGE# > ?"
                    + " GROUP BY L.GROUP#";
    static final String ADD_FIRST_LOG_FILE =
            "BEGIN DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => ?, OPTIONS => DBMS_LOGMNR.NEW); END;";
    static final String ADD_LOG_FILE =
            "BEGIN DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => ?, OPTIONS => DBMS_LOGMNR.ADDFILE); END;";
    static final String START_LOGMNR =
            "BEGIN DBMS_LOGMNR.START_LOGMNR(STARTSCN => ?, ENDSCN => ?,"
                    + " OPTIONS => DBMS_LOGMNR.DICT_FROM_ONLINE_CATALOG + DBMS_LOGMNR.NO_ROWID_IN_STMT); END;";
    static final String END_LOGMNR = "BEGIN DBMS_LOGMNR.END_LOGMNR; END;";

    @Override
    public void prepareSession(Connection connection) throws SQLException {
        try (var statement = connection.createStatement()) {
            for (String sql : SESSION) {
                statement.execute(sql);
            }
        }
    }

    @Override
    public long currentScn(Connection connection) throws SQLException {
        try (var statement = connection.prepareStatement(CURRENT_SCN);
                var rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("V$DATABASE returned no row");
            }
            return rows.getLong(1);
        }
    }

    @Override
    public void startSession(Connection connection, long startScn, long endScn)
            throws SQLException {
        List<String> files = logFiles(connection, startScn, endScn);
        if (files.isEmpty()) {
            throw new SQLException(
                    "no redo log file holds the window: startScn="
                            + startScn
                            + ", endScn="
                            + endScn
                            + "; the archived logs may have been deleted before the fetcher read them");
        }
        for (int i = 0; i < files.size(); i++) {
            try (var call = connection.prepareCall(i == 0 ? ADD_FIRST_LOG_FILE : ADD_LOG_FILE)) {
                call.setString(1, files.get(i));
                call.execute();
            }
        }
        try (var call = connection.prepareCall(START_LOGMNR)) {
            call.setLong(1, startScn);
            call.setLong(2, endScn);
            call.execute();
        }
    }

    static List<String> logFiles(Connection connection, long startScn, long endScn)
            throws SQLException {
        List<String> files = new ArrayList<>();
        try (var statement = connection.prepareStatement(LOG_FILES)) {
            statement.setLong(1, endScn);
            statement.setLong(2, startScn);
            statement.setLong(3, endScn);
            statement.setLong(4, startScn);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    files.add(rows.getString(1));
                }
            }
        }
        return files;
    }

    @Override
    public void endSession(Connection connection) throws SQLException {
        try (var call = connection.prepareCall(END_LOGMNR)) {
            call.execute();
        }
    }
}
