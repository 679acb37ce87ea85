package io.changegrid.appliers.dialect;

import io.changegrid.appliers.typemap.PostgresTypes;
import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.appliers.typemap.TypeMapper;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;

/** PostgreSQL: {@code ON CONFLICT} upserts, transactional DDL, batches rewritten to multi-row. */
public final class PostgresDialect implements Dialect {

    private static final TypeMapper TYPES = new PostgresTypes();

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public TypeMapper types() {
        return TYPES;
    }

    @Override
    public String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public Properties connectionProperties() {
        Properties properties = new Properties();
        // Sends a JDBC batch of single-row INSERTs as multi-row INSERTs: fewer round trips.
        properties.setProperty("reWriteBatchedInserts", "true");
        return properties;
    }

    /**
     * By SQLSTATE class: 08 connection, 40 rollback (serialization, deadlock), 53 out of resources,
     * 57 operator intervention (shutdown, cancel), 55P03 lock not available ({@code lock_timeout}),
     * and HYT00.
     */
    @Override
    public boolean transientCause(SQLException error) {
        String state = error.getSQLState();
        return state != null
                && (state.startsWith("08")
                        || state.startsWith("40")
                        || state.startsWith("53")
                        || state.startsWith("57")
                        || state.equals("55P03")
                        || state.equals("HYT00"));
    }

    /** The advisory lock key of the applier's DDL: "cg-ddl" in ASCII. */
    private static final long DDL_LOCK_KEY = 0x63672d64646cL;

    @Override
    public void prepareSession(Connection connection) {}

    @Override
    public DdlLock lockDdl(Connection connection) throws SQLException {
        if (!connection.getAutoCommit()) {
            execute(connection, "SELECT pg_advisory_xact_lock(" + DDL_LOCK_KEY + ")");
            return () -> {}; // released by the transaction's commit or rollback
        }
        execute(connection, "SELECT pg_advisory_lock(" + DDL_LOCK_KEY + ")");
        return () -> execute(connection, "SELECT pg_advisory_unlock(" + DDL_LOCK_KEY + ")");
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Override
    public boolean optimisticInserts() {
        // ON CONFLICT costs about what a plain INSERT does here.
        return false;
    }

    @Override
    public String otherUniqueKeysQuery() {
        // Unique indexes, whether made by a UNIQUE constraint or by CREATE UNIQUE INDEX.
        return "SELECT i.relname FROM pg_index x"
                + " JOIN pg_class i ON i.oid = x.indexrelid"
                + " JOIN pg_class t ON t.oid = x.indrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " WHERE n.nspname = ? AND t.relname = ? AND x.indisunique AND NOT x.indisprimary"
                + " ORDER BY i.relname";
    }

    @Override
    public String foreignKeysQuery() {
        return "SELECT c.conname FROM pg_constraint c"
                + " JOIN pg_class child ON child.oid = c.conrelid"
                + " JOIN pg_namespace cn ON cn.oid = child.relnamespace"
                + " JOIN pg_class parent ON parent.oid = c.confrelid"
                + " JOIN pg_namespace pn ON pn.oid = parent.relnamespace"
                + " WHERE c.contype = 'f' AND ((cn.nspname = ? AND child.relname = ?)"
                + " OR (pn.nspname = ? AND parent.relname = ?))"
                + " ORDER BY c.conname";
    }

    @Override
    public boolean transactionalDdl() {
        return true;
    }

    @Override
    public String upsert(String table, List<TargetColumn> columns, List<TargetColumn> key) {
        StringJoiner names = new StringJoiner(", ", "(", ")");
        StringJoiner values = new StringJoiner(", ", "(", ")");
        StringJoiner keyNames = new StringJoiner(", ", "(", ")");
        StringJoiner set = new StringJoiner(", ");
        for (TargetColumn column : columns) {
            names.add(quote(column.name()));
            values.add(column.placeholder());
            if (!key.contains(column)) {
                set.add(quote(column.name()) + " = EXCLUDED." + quote(column.name()));
            }
        }
        for (TargetColumn column : key) {
            keyNames.add(quote(column.name()));
        }
        return "INSERT INTO "
                + table
                + " "
                + names
                + " VALUES "
                + values
                + " ON CONFLICT "
                + keyNames
                + (set.length() == 0 ? " DO NOTHING" : " DO UPDATE SET " + set);
    }

    /** The staging table's column saying whether a row is a delete (else an upsert). */
    public static final String STAGED_DELETE = "_cg_delete";

    /**
     * A session's staging table for one target table: its columns with their target types, no
     * constraints, emptied by every commit. TEMP: private to the session and never WAL-logged.
     */
    public String createStagingTable(String staging, List<TargetColumn> columns) {
        StringJoiner definitions = new StringJoiner(", ", "(", ")");
        definitions.add(quote(STAGED_DELETE) + " boolean NOT NULL");
        for (TargetColumn column : columns) {
            definitions.add(quote(column.name()) + " " + column.declaration());
        }
        return "CREATE TEMP TABLE " + quote(staging) + " " + definitions + " ON COMMIT DELETE ROWS";
    }

    /** {@code COPY staging (_cg_delete, columns...) FROM STDIN}, text format. */
    public String copyIntoStaging(String staging, List<TargetColumn> columns) {
        StringJoiner names = new StringJoiner(", ", "(", ")");
        names.add(quote(STAGED_DELETE));
        for (TargetColumn column : columns) {
            names.add(quote(column.name()));
        }
        return "COPY " + quote(staging) + " " + names + " FROM STDIN";
    }

    /** Deletes the target rows whose keys are staged as deletes. */
    public String mergeDeletes(String table, String staging, List<TargetColumn> key) {
        StringJoiner match = new StringJoiner(" AND ");
        for (TargetColumn column : key) {
            match.add("t." + quote(column.name()) + " = s." + quote(column.name()));
        }
        return "DELETE FROM "
                + table
                + " t USING "
                + quote(staging)
                + " s WHERE s."
                + quote(STAGED_DELETE)
                + " AND "
                + match;
    }

    /**
     * Upserts the staged images: one {@code INSERT ... SELECT ... ON CONFLICT DO UPDATE}. Each key
     * is staged at most once per commit (the lane keeps a key's last change only), so no row is
     * affected twice.
     */
    public String mergeUpserts(
            String table, String staging, List<TargetColumn> columns, List<TargetColumn> key) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner keyNames = new StringJoiner(", ", "(", ")");
        StringJoiner set = new StringJoiner(", ");
        for (TargetColumn column : columns) {
            names.add(quote(column.name()));
            if (!key.contains(column)) {
                set.add(quote(column.name()) + " = EXCLUDED." + quote(column.name()));
            }
        }
        for (TargetColumn column : key) {
            keyNames.add(quote(column.name()));
        }
        return "INSERT INTO "
                + table
                + " ("
                + names
                + ") SELECT "
                + names
                + " FROM "
                + quote(staging)
                + " WHERE NOT "
                + quote(STAGED_DELETE)
                + " ON CONFLICT "
                + keyNames
                + (set.length() == 0 ? " DO NOTHING" : " DO UPDATE SET " + set);
    }

    @Override
    public String keyParameter(TargetColumn column) {
        // Untyped parameters in a UNION would be text; compared with the column they must not be.
        return "CAST(" + column.placeholder() + " AS " + column.declaration() + ")";
    }

    @Override
    public String tableOptions() {
        // Room on each page for a row's next version: an update that changes no indexed column
        // then stays on its page (a HOT update) and writes no index entry.
        return " WITH (fillfactor = 90)";
    }

    @Override
    public String lockRowsRead() {
        return " FOR UPDATE OF t";
    }

    @Override
    public String createNamespace(String namespace) {
        return "CREATE SCHEMA IF NOT EXISTS " + quote(namespace);
    }

    @Override
    public String alterColumnType(String table, TargetColumn column) {
        String name = quote(column.name());
        return "ALTER TABLE "
                + table
                + " ALTER COLUMN "
                + name
                + " TYPE "
                + column.declaration()
                + " USING "
                + name
                + "::text::"
                + column.declaration()
                + ", ALTER COLUMN "
                + name
                + (column.source().nullable() ? " DROP NOT NULL" : " SET NOT NULL");
    }

    @Override
    public String createCheckpointTable(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (consumer_group varchar(200) NOT NULL, partition_id integer NOT NULL,"
                + " lane integer NOT NULL, scn bigint NOT NULL, epoch bigint NOT NULL,"
                + " partial_scn bigint NOT NULL DEFAULT -1, partial_index integer NOT NULL DEFAULT -1,"
                + " updated_at timestamptz NOT NULL DEFAULT now(),"
                + " PRIMARY KEY (consumer_group, partition_id, lane))";
    }

    @Override
    public String createParkedTable(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (consumer_group varchar(200) NOT NULL, partition_id integer NOT NULL,"
                + " table_name varchar(400) NOT NULL, error text NOT NULL,"
                + " resume_requested boolean NOT NULL DEFAULT false,"
                + " parked_at timestamptz NOT NULL DEFAULT now(),"
                + " PRIMARY KEY (consumer_group, partition_id, table_name))";
    }

    @Override
    public String createDeadLetterTable(String table) {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (consumer_group varchar(200) NOT NULL, partition_id integer NOT NULL,"
                + " table_name varchar(400) NOT NULL, scn bigint NOT NULL,"
                + " event_index integer NOT NULL, part smallint NOT NULL,"
                + " operation varchar(20) NOT NULL, event text NOT NULL, table_schema text NOT NULL,"
                + " recorded_at timestamptz NOT NULL DEFAULT now(),"
                + " PRIMARY KEY (consumer_group, partition_id, table_name, scn, event_index, part))";
    }

    @Override
    public String insertCheckpointIfAbsent(String table) {
        return "INSERT INTO "
                + table
                + " (consumer_group, partition_id, lane, scn, epoch) VALUES (?, ?, ?, -1, 0)"
                + " ON CONFLICT DO NOTHING";
    }
}
