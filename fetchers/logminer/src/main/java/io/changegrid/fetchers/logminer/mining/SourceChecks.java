package io.changegrid.fetchers.logminer.mining;

import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.fetchers.logminer.schema.OracleCatalog;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the source must offer before mining, checked at start and reported all at once: archive log
 * mode (so redo outlives the online logs), minimal supplemental logging and all-column logging of
 * the captured tables (so an update's WHERE holds the whole old row), and the privileges to mine
 * ({@code LOGMINING}, {@code SELECT ANY TRANSACTION}, the {@code V$} views through {@code SELECT
 * ANY DICTIONARY} or {@code SELECT_CATALOG_ROLE}), and the {@link RedoFlush} table. Plain SQL on
 * Oracle's views.
 */
public final class SourceChecks {

    static final String DATABASE =
            "SELECT LOG_MODE, SUPPLEMENTAL_LOG_DATA_MIN, SUPPLEMENTAL_LOG_DATA_ALL FROM V$DATABASE";
    static final String PRIVILEGES = "SELECT PRIVILEGE FROM SESSION_PRIVS";
    static final String ROLES = "SELECT ROLE FROM SESSION_ROLES";
    static final String ALL_COLUMN_LOGGING =
            "SELECT OWNER, TABLE_NAME FROM ALL_LOG_GROUPS WHERE LOG_GROUP_TYPE = 'ALL COLUMN LOGGING'";

    private SourceChecks() {}

    /**
     * Checks everything and throws once, naming every problem with its fix.
     *
     * @throws FetchFailedException when anything is missing
     */
    public static void run(Connection connection, List<OracleCatalog.TableName> tables)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        boolean allColumnsLogged;
        try (var statement = connection.prepareStatement(DATABASE);
                var rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("V$DATABASE returned no row");
            }
            if (!"ARCHIVELOG".equals(rows.getString(1))) {
                problems.add(
                        "database not in archive log mode: LOG_MODE="
                                + rows.getString(1)
                                + "; fix: SHUTDOWN IMMEDIATE; STARTUP MOUNT; ALTER DATABASE ARCHIVELOG;"
                                + " ALTER DATABASE OPEN");
            }
            String minimal = rows.getString(2);
            if (!"YES".equals(minimal) && !"IMPLICIT".equals(minimal)) {
                problems.add(
                        "minimal supplemental logging is off: SUPPLEMENTAL_LOG_DATA_MIN="
                                + minimal
                                + "; fix: ALTER DATABASE ADD SUPPLEMENTAL LOG DATA");
            }
            allColumnsLogged = "YES".equals(rows.getString(3));
        }
        if (!allColumnsLogged) {
            Set<String> logged = new HashSet<>();
            try (var statement = connection.prepareStatement(ALL_COLUMN_LOGGING);
                    var rows = statement.executeQuery()) {
                while (rows.next()) {
                    logged.add(rows.getString(1) + "." + rows.getString(2));
                }
            }
            for (var table : tables) {
                if (!logged.contains(table.toString())) {
                    problems.add(
                            "captured table without all-column supplemental logging: table="
                                    + table
                                    + "; fix: ALTER TABLE \""
                                    + table.owner()
                                    + "\".\""
                                    + table.table()
                                    + "\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS");
                }
            }
        }
        Set<String> privileges = strings(connection, PRIVILEGES);
        Set<String> roles = strings(connection, ROLES);
        for (String needed : List.of("LOGMINING", "SELECT ANY TRANSACTION")) {
            if (!privileges.contains(needed)) {
                problems.add(
                        "privilege missing: privilege="
                                + needed
                                + "; fix: GRANT "
                                + needed
                                + " TO <user>");
            }
        }
        if (!privileges.contains("SELECT ANY DICTIONARY")
                && !roles.contains("SELECT_CATALOG_ROLE")) {
            problems.add(
                    "no read access to the V$ views: neither SELECT ANY DICTIONARY nor SELECT_CATALOG_ROLE;"
                            + " fix: GRANT SELECT_CATALOG_ROLE TO <user>");
        }
        if (!roles.contains("EXECUTE_CATALOG_ROLE")) {
            problems.add(
                    "DBMS_LOGMNR not executable: role EXECUTE_CATALOG_ROLE missing;"
                            + " fix: GRANT EXECUTE_CATALOG_ROLE TO <user>");
        }
        String flush = RedoFlush.problem(connection);
        if (flush != null) {
            problems.add(flush);
        }
        if (!problems.isEmpty()) {
            throw new FetchFailedException(
                    "the Oracle source cannot be mined ("
                            + problems.size()
                            + " problems): "
                            + String.join(
                                    "; ", problems.stream().map(p -> "[" + p + "]").toList()));
        }
    }

    private static Set<String> strings(Connection connection, String sql) throws SQLException {
        Set<String> values = new HashSet<>();
        try (var statement = connection.prepareStatement(sql);
                var rows = statement.executeQuery()) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }
}
