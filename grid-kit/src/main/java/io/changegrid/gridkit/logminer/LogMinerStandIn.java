package io.changegrid.gridkit.logminer;

import io.changegrid.gridkit.server.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;

/**
 * A PostgreSQL database standing in for an Oracle source mined with LogMiner. It serves, through
 * the real pgjdbc driver, the relations the fetcher reads, named and typed as Oracle's:
 *
 * <ul>
 *   <li>{@code v$logmnr_contents}: a view of the stored redo rows that shows only the rows of the
 *       open LogMiner session's window {@code [STARTSCN, ENDSCN]}, in redo order, and raises
 *       Oracle's ORA-01306 without a session, as Oracle does;
 *   <li>{@code v$database} ({@code LOG_MODE}, {@code SUPPLEMENTAL_LOG_DATA_MIN}/{@code _ALL},
 *       {@code CURRENT_SCN}), {@code session_privs}, {@code session_roles}, {@code all_log_groups},
 *       {@code all_tables}, {@code all_tab_columns}, {@code all_constraints}, {@code
 *       all_cons_columns};
 *   <li>a log buffer: rows {@link #appendUnflushed appended unflushed} stay out of the view until a
 *       flush, which a committed {@code UPDATE log_mining_flush SET last_scn = ?} (the fetcher's
 *       flush table, as on Oracle) or an {@link #append} makes; the session start refuses an end
 *       above the flushed SCN, where Oracle would silently return a window short of those rows;
 *   <li>the stand-ins of the two PL/SQL calls, {@code dbms_logmnr_start_logmnr(start, end)} (which
 *       refuses an end above the current SCN, as Oracle's ORA-01281) and {@code
 *       dbms_logmnr_end_logmnr()}, called by the fetcher's {@code StandInMiningStatements}: those
 *       names are the contract between the two.
 * </ul>
 *
 * Rows and the current SCN are written in one transaction per {@link #append}, so a fetcher never
 * sees an SCN whose rows are not all there. Threading: one writer at a time; fetchers read
 * concurrently over their own connections.
 */
public final class LogMinerStandIn {

    /** A column added by a DDL, applied to the dictionary with the DDL's rows. */
    public record AddedColumn(String owner, String table, int position, StandInColumn column) {}

    private static final List<String> SCHEMA =
            List.of(
                    "CREATE TABLE logmnr_redo (seq bigserial PRIMARY KEY, scn numeric NOT NULL,"
                            + " sql_redo varchar(4000), operation_code numeric NOT NULL, operation varchar(32),"
                            + " \"TIMESTAMP\" timestamp, xid bytea, csf numeric NOT NULL, seg_owner varchar(128),"
                            + " table_name varchar(128), row_id varchar(18), \"ROLLBACK\" numeric NOT NULL,"
                            + " status numeric NOT NULL DEFAULT 0, info varchar(32), ssn numeric NOT NULL,"
                            + " \"THREAD#\" numeric NOT NULL, rs_id varchar(32))",
                    "CREATE INDEX logmnr_redo_scn ON logmnr_redo (scn, seq)",
                    // The log buffer: rows generated but not yet written by LGWR. Same sequence as
                    // logmnr_redo, so a flushed row keeps its place in redo order.
                    "CREATE TABLE logmnr_buffer (LIKE logmnr_redo INCLUDING DEFAULTS)",
                    "CREATE TABLE logmnr_flushed (scn numeric NOT NULL)",
                    "INSERT INTO logmnr_flushed VALUES (0)",
                    "CREATE FUNCTION logmnr_flush(upto numeric) RETURNS void LANGUAGE plpgsql AS $$ BEGIN"
                            + " PERFORM pg_advisory_xact_lock(1806);"
                            + " WITH moved AS (DELETE FROM logmnr_buffer RETURNING *)"
                            + " INSERT INTO logmnr_redo SELECT * FROM moved ORDER BY seq;"
                            + " UPDATE logmnr_flushed SET scn = GREATEST(scn,"
                            + " LEAST(upto, (SELECT current_scn FROM v$database))); END $$",
                    // The fetcher's flush table: its committed UPDATE writes the log buffer out,
                    // as a commit makes Oracle's LGWR write all redo generated before it.
                    "CREATE TABLE log_mining_flush (last_scn numeric)",
                    "INSERT INTO log_mining_flush VALUES (0)",
                    "CREATE FUNCTION log_mining_flushed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                            + " PERFORM logmnr_flush(NEW.last_scn); RETURN NEW; END $$",
                    "CREATE TRIGGER log_mining_flush_commit AFTER UPDATE ON log_mining_flush"
                            + " FOR EACH ROW EXECUTE FUNCTION log_mining_flushed()",
                    "CREATE TABLE v$database (log_mode varchar(12), supplemental_log_data_min varchar(8),"
                            + " supplemental_log_data_all varchar(3), current_scn numeric NOT NULL)",
                    "INSERT INTO v$database VALUES ('ARCHIVELOG', 'YES', 'NO', 0)",
                    "CREATE FUNCTION logmnr_window(bound text) RETURNS numeric LANGUAGE plpgsql STABLE AS $$"
                            + " DECLARE v text := current_setting('logmnr.' || bound, true);"
                            + " BEGIN IF v IS NULL OR v = '' THEN RAISE EXCEPTION"
                            + " 'ORA-01306: dbms_logmnr.start_logmnr() must be invoked before selecting from"
                            + " v$logmnr_contents'; END IF; RETURN v::numeric; END $$",
                    "CREATE FUNCTION dbms_logmnr_start_logmnr(startscn numeric, endscn numeric) RETURNS void"
                            + " LANGUAGE plpgsql AS $$ BEGIN"
                            + " IF endscn > (SELECT current_scn FROM v$database) THEN RAISE EXCEPTION"
                            + " 'ORA-01281: SCN range specified is invalid: endscn=%', endscn; END IF;"
                            + " IF endscn > (SELECT scn FROM logmnr_flushed) THEN RAISE EXCEPTION"
                            + " 'stand-in: ENDSCN % is beyond the redo flushed (SCN %); on Oracle the"
                            + " window would silently lack the rows still in the log buffer', endscn,"
                            + " (SELECT scn FROM logmnr_flushed); END IF;"
                            + " PERFORM set_config('logmnr.startscn', startscn::text, false);"
                            + " PERFORM set_config('logmnr.endscn', endscn::text, false); END $$",
                    "CREATE FUNCTION dbms_logmnr_end_logmnr() RETURNS void LANGUAGE plpgsql AS $$ BEGIN"
                            + " PERFORM set_config('logmnr.startscn', '', false);"
                            + " PERFORM set_config('logmnr.endscn', '', false); END $$",
                    "CREATE VIEW v$logmnr_contents AS SELECT scn, sql_redo, operation_code, operation,"
                            + " \"TIMESTAMP\", xid, csf, seg_owner, table_name, row_id, \"ROLLBACK\", status, info, ssn,"
                            + " \"THREAD#\", rs_id FROM logmnr_redo WHERE scn >= logmnr_window('startscn')"
                            + " AND scn <= logmnr_window('endscn') ORDER BY seq",
                    "CREATE TABLE session_privs (privilege varchar(40))",
                    "INSERT INTO session_privs VALUES ('LOGMINING'), ('SELECT ANY TRANSACTION'),"
                            + " ('CREATE SESSION')",
                    "CREATE TABLE session_roles (role varchar(128))",
                    "INSERT INTO session_roles VALUES ('SELECT_CATALOG_ROLE'), ('EXECUTE_CATALOG_ROLE')",
                    "CREATE TABLE all_log_groups (owner varchar(128), log_group_name varchar(128),"
                            + " table_name varchar(128), log_group_type varchar(19))",
                    "CREATE TABLE all_tables (owner varchar(128), table_name varchar(128))",
                    "CREATE TABLE all_tab_columns (owner varchar(128), table_name varchar(128),"
                            + " column_name varchar(128), data_type varchar(128), data_length numeric,"
                            + " char_length numeric, data_precision numeric, data_scale numeric,"
                            + " nullable varchar(1), column_id numeric)",
                    "CREATE TABLE all_constraints (owner varchar(128), constraint_name varchar(128),"
                            + " table_name varchar(128), constraint_type varchar(1))",
                    "CREATE TABLE all_cons_columns (owner varchar(128), constraint_name varchar(128),"
                            + " table_name varchar(128), column_name varchar(4000), position numeric)");

    private final PostgresServer server;
    private final String database;

    private LogMinerStandIn(PostgresServer server, String database) {
        this.server = server;
        this.database = database;
    }

    /** Creates the stand-in's relations in a new database {@code database} of {@code server}. */
    public static LogMinerStandIn create(PostgresServer server, String database)
            throws SQLException {
        server.createDatabase(database);
        server.execute(database, SCHEMA.toArray(new String[0]));
        return new LogMinerStandIn(server, database);
    }

    /** The JDBC URL a fetcher mines ({@code source.url}); user {@code postgres}, no password. */
    public String jdbcUrl() {
        return server.jdbcUrl(database);
    }

    public String user() {
        return server.user();
    }

    /**
     * Adds a table to the dictionary, with its primary key and, when {@code allColumnsLogged}, an
     * all-column supplemental log group.
     */
    public void defineTable(
            String owner,
            String table,
            List<StandInColumn> columns,
            List<String> key,
            boolean allColumnsLogged)
            throws SQLException {
        try (Connection connection = server.connect(database)) {
            connection.setAutoCommit(false);
            try (var statement =
                    connection.prepareStatement("INSERT INTO all_tables VALUES (?, ?)")) {
                statement.setString(1, owner);
                statement.setString(2, table);
                statement.execute();
            }
            for (int i = 0; i < columns.size(); i++) {
                insertColumn(connection, owner, table, i + 1, columns.get(i));
            }
            if (!key.isEmpty()) {
                String constraint = "PK_" + table;
                try (var statement =
                        connection.prepareStatement(
                                "INSERT INTO all_constraints VALUES (?, ?, ?, 'P')")) {
                    statement.setString(1, owner);
                    statement.setString(2, constraint);
                    statement.setString(3, table);
                    statement.execute();
                }
                for (int i = 0; i < key.size(); i++) {
                    try (var statement =
                            connection.prepareStatement(
                                    "INSERT INTO all_cons_columns VALUES (?, ?, ?, ?, ?)")) {
                        statement.setString(1, owner);
                        statement.setString(2, constraint);
                        statement.setString(3, table);
                        statement.setString(4, key.get(i));
                        statement.setInt(5, i + 1);
                        statement.execute();
                    }
                }
            }
            if (allColumnsLogged) {
                try (var statement =
                        connection.prepareStatement(
                                "INSERT INTO all_log_groups VALUES (?, ?, ?, 'ALL COLUMN LOGGING')")) {
                    statement.setString(1, owner);
                    statement.setString(2, "SYS_C_" + table);
                    statement.setString(3, table);
                    statement.execute();
                }
            }
            connection.commit();
        }
    }

    private static void insertColumn(
            Connection connection, String owner, String table, int position, StandInColumn column)
            throws SQLException {
        try (var statement =
                connection.prepareStatement(
                        "INSERT INTO all_tab_columns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            statement.setString(1, owner);
            statement.setString(2, table);
            statement.setString(3, column.name());
            statement.setString(4, column.dataType());
            statement.setInt(5, column.length());
            statement.setInt(6, column.isCharacter() ? column.length() : 0);
            setInteger(statement, 7, column.precision());
            setInteger(statement, 8, column.scale());
            statement.setString(9, column.nullable() ? "Y" : "N");
            statement.setInt(10, position);
            statement.execute();
        }
    }

    private static void setInteger(java.sql.PreparedStatement statement, int index, Integer value)
            throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NUMERIC);
        } else {
            statement.setInt(index, value);
        }
    }

    /** Runs statements on the stand-in's database (e.g. to take a privilege away in a test). */
    public void execute(String... statements) throws SQLException {
        server.execute(database, statements);
    }

    /**
     * Stores rows and dictionary changes and moves the current SCN to {@code currentScn}, in one
     * transaction, with the redo flushed (as any commit on Oracle does): a fetcher sees all of them
     * or none.
     */
    public void append(List<RedoRow> rows, List<AddedColumn> added, long currentScn)
            throws SQLException {
        append(rows, added, currentScn, true);
    }

    /**
     * Stores rows in the log buffer and moves the current SCN to {@code currentScn}, without
     * flushing: the rows of an open transaction Oracle has generated but LGWR has not written yet.
     * {@code v$logmnr_contents} shows them only after a flush ({@link #append}, or a committed
     * {@code UPDATE log_mining_flush}), and a session may not end above the flushed SCN.
     */
    public void appendUnflushed(List<RedoRow> rows, long currentScn) throws SQLException {
        append(rows, List.of(), currentScn, false);
    }

    private void append(List<RedoRow> rows, List<AddedColumn> added, long currentScn, boolean flush)
            throws SQLException {
        try (Connection connection = server.connect(database)) {
            connection.setAutoCommit(false);
            for (AddedColumn column : added) {
                insertColumn(
                        connection,
                        column.owner(),
                        column.table(),
                        column.position(),
                        column.column());
            }
            try (var statement =
                    connection.prepareStatement(
                            "INSERT INTO logmnr_buffer (scn, sql_redo, operation_code, operation, \"TIMESTAMP\","
                                    + " xid, csf, seg_owner, table_name, row_id, \"ROLLBACK\", ssn, \"THREAD#\", rs_id)"
                                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (RedoRow row : rows) {
                    statement.setLong(1, row.scn());
                    statement.setString(2, row.sqlRedo());
                    statement.setInt(3, row.operationCode());
                    statement.setString(4, row.operation());
                    statement.setTimestamp(5, Timestamp.valueOf(row.timestamp()));
                    statement.setBytes(6, row.xid());
                    statement.setInt(7, row.csf() ? 1 : 0);
                    statement.setString(8, row.owner());
                    statement.setString(9, row.table());
                    statement.setString(10, row.rowId());
                    statement.setInt(11, row.rollback() ? 1 : 0);
                    statement.setLong(12, row.ssn());
                    statement.setInt(13, row.thread());
                    statement.setString(14, row.rsId());
                    statement.addBatch();
                }
                statement.executeBatch();
            }
            try (var statement =
                    connection.prepareStatement(
                            "UPDATE v$database SET current_scn = GREATEST(current_scn, ?)")) {
                statement.setLong(1, currentScn);
                statement.execute();
            }
            if (flush) {
                try (var statement = connection.prepareStatement("SELECT logmnr_flush(?)")) {
                    statement.setLong(1, currentScn);
                    statement.execute();
                }
            }
            connection.commit();
        }
    }

    /** The stand-in database's current SCN. */
    public long currentScn() throws SQLException {
        try (Connection connection = server.connect(database);
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT current_scn FROM v$database")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
