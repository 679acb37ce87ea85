package io.changegrid.appliers.dialect;

import io.changegrid.appliers.typemap.MariaDbTypes;
import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.appliers.typemap.TypeMapper;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;

/**
 * MariaDB and MySQL: {@code ON DUPLICATE KEY UPDATE} upserts; DDL commits implicitly, so schema
 * changes are made idempotent instead (see {@code docs/appliers.md}).
 */
public final class MariaDbDialect implements Dialect {

    private static final TypeMapper TYPES = new MariaDbTypes();

    @Override
    public String name() {
        return "MariaDB/MySQL";
    }

    @Override
    public TypeMapper types() {
        return TYPES;
    }

    @Override
    public String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    @Override
    public Properties connectionProperties() {
        Properties properties = new Properties();
        // INSERT batches (plain inserts and upserts) go in one COM_STMT_BULK_EXECUTE round trip;
        // other batches (updates, deletes) are pipelined, so each statement's update count comes
        // back: the update of changed columns needs it to see a missing row. Counts are of rows
        // found, not changed, so a repeated update still counts its row.
        properties.setProperty("useBulkStmts", "false");
        properties.setProperty("useBulkStmtsForInserts", "true");
        properties.setProperty("useAffectedRows", "false");
        return properties;
    }

    /**
     * MariaDB/MySQL error codes a retry can get past. MariaDB Connector/J makes an error whose
     * SQLSTATE it does not know (e.g. {@code 01000} of error 1265, a value truncated in strict
     * mode) a {@link java.sql.SQLTransientConnectionException}, so the exception's class says
     * nothing here: only the code and the connection (08) and rollback (40) states do.
     */
    private static final Set<Integer> TRANSIENT_CODES =
            Set.of(
                    1040, // too many connections
                    1053, // server shutdown in progress
                    1205, // lock wait timeout
                    1213, // deadlock
                    1317, // query interrupted (KILL QUERY)
                    1927, // connection killed
                    2002, // cannot connect
                    2003, // cannot connect
                    2006, // server gone away
                    2013, // lost connection during query
                    4031); // disconnected after an idle timeout

    @Override
    public boolean transientCause(SQLException error) {
        String state = error.getSQLState();
        return TRANSIENT_CODES.contains(error.getErrorCode())
                || (state != null
                        && (state.startsWith("08")
                                || state.startsWith("40")
                                || state.equals("HYT00")));
    }

    @Override
    public void prepareSession(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            // TIMESTAMP values are bound as UTC text; zero dates and strict range checks as the
            // source had them; TIMESTAMP columns without implicit defaults or ON UPDATE.
            statement.execute(
                    "SET time_zone = '+00:00', sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION',"
                            + " explicit_defaults_for_timestamp = 1");
        }
    }

    @Override
    public DdlLock lockDdl(Connection connection) throws SQLException {
        // DDL commits implicitly here, so the lock is the session's either way.
        try (Statement statement = connection.createStatement();
                var result = statement.executeQuery("SELECT GET_LOCK('changegrid.ddl', 60)")) {
            if (!result.next() || result.getInt(1) != 1) {
                throw new SQLException(
                        "target DDL lock not acquired within 60 s: lock=changegrid.ddl", "HYT00");
            }
        }
        return () -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT RELEASE_LOCK('changegrid.ddl')");
            }
        };
    }

    @Override
    public boolean optimisticInserts() {
        // ON DUPLICATE KEY UPDATE writes at about 40 % of a plain INSERT's rate (bulk protocol).
        return true;
    }

    @Override
    public String otherUniqueKeysQuery() {
        return "SELECT DISTINCT index_name FROM information_schema.statistics"
                + " WHERE table_schema = ? AND table_name = ? AND non_unique = 0"
                + " AND index_name <> 'PRIMARY' ORDER BY index_name";
    }

    @Override
    public String foreignKeysQuery() {
        return "SELECT DISTINCT constraint_name FROM information_schema.key_column_usage"
                + " WHERE referenced_table_name IS NOT NULL"
                + " AND ((table_schema = ? AND table_name = ?)"
                + " OR (referenced_table_schema = ? AND referenced_table_name = ?))"
                + " ORDER BY constraint_name";
    }

    @Override
    public boolean transactionalDdl() {
        return false;
    }

    @Override
    public String upsert(String table, List<TargetColumn> columns, List<TargetColumn> key) {
        StringJoiner names = new StringJoiner(", ", "(", ")");
        StringJoiner values = new StringJoiner(", ", "(", ")");
        StringJoiner set = new StringJoiner(", ");
        for (TargetColumn column : columns) {
            String name = quote(column.name());
            names.add(name);
            values.add(column.placeholder());
            if (!key.contains(column)) {
                set.add(name + " = VALUES(" + name + ")");
            }
        }
        if (set.length() == 0) {
            String first = quote(key.get(0).name());
            set.add(first + " = " + first);
        }
        return "INSERT INTO "
                + table
                + " "
                + names
                + " VALUES "
                + values
                + " ON DUPLICATE KEY UPDATE "
                + set;
    }

    @Override
    public String tableOptions() {
        return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    @Override
    public String nullable(TargetColumn column) {
        // TIMESTAMP columns are NOT NULL by default in MySQL without explicit defaults.
        return " NULL";
    }

    @Override
    public String lockRowsRead() {
        // Under REPEATABLE READ (the session default) a key without a row gets a gap lock, so
        // nobody else can insert it before this transaction ends either.
        return " FOR UPDATE";
    }

    @Override
    public String createNamespace(String namespace) {
        return "CREATE DATABASE IF NOT EXISTS " + quote(namespace);
    }

    @Override
    public String alterColumnType(String table, TargetColumn column) {
        return "ALTER TABLE " + table + " MODIFY COLUMN " + columnDefinition(column);
    }

    @Override
    public String createCheckpointTable(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (consumer_group varchar(200) NOT NULL, partition_id int NOT NULL,"
                + " lane int NOT NULL, scn bigint NOT NULL, epoch bigint NOT NULL,"
                + " partial_scn bigint NOT NULL DEFAULT -1, partial_index integer NOT NULL DEFAULT -1,"
                + " updated_at timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                + " PRIMARY KEY (consumer_group, partition_id, lane)) ENGINE=InnoDB";
    }

    @Override
    public String createParkedTable(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (consumer_group varchar(200) NOT NULL, partition_id int NOT NULL,"
                + " table_name varchar(400) NOT NULL, error longtext NOT NULL,"
                + " resume_requested boolean NOT NULL DEFAULT false,"
                + " parked_at timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                + " PRIMARY KEY (consumer_group, partition_id, table_name))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    @Override
    public String createDeadLetterTable(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (consumer_group varchar(200) NOT NULL, partition_id int NOT NULL,"
                + " table_name varchar(400) NOT NULL, scn bigint NOT NULL,"
                + " event_index int NOT NULL, part smallint NOT NULL,"
                + " operation varchar(20) NOT NULL, event longtext NOT NULL,"
                + " table_schema longtext NOT NULL,"
                + " recorded_at timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                + " PRIMARY KEY (consumer_group, partition_id, table_name, scn, event_index, part))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    @Override
    public String insertCheckpointIfAbsent(String table) {
        return "INSERT INTO "
                + table
                + " (consumer_group, partition_id, lane, scn, epoch) VALUES (?, ?, ?, -1, 0)"
                + " ON DUPLICATE KEY UPDATE lane = lane";
    }
}
