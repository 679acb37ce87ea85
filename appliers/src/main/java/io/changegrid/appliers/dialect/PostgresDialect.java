package io.changegrid.appliers.dialect;

import io.changegrid.appliers.typemap.PostgresTypes;
import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.appliers.typemap.TypeMapper;
import java.sql.Connection;
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

    @Override
    public void prepareSession(Connection connection) {}

    @Override
    public boolean optimisticInserts() {
        // ON CONFLICT costs about what a plain INSERT does here.
        return false;
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

    @Override
    public String keyParameter(TargetColumn column) {
        // Untyped parameters in a UNION would be text; compared with the column they must not be.
        return "CAST(" + column.placeholder() + " AS " + column.declaration() + ")";
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
                + " updated_at timestamptz NOT NULL DEFAULT now(),"
                + " PRIMARY KEY (consumer_group, partition_id, lane))";
    }

    @Override
    public String insertCheckpointIfAbsent(String table) {
        return "INSERT INTO "
                + table
                + " (consumer_group, partition_id, lane, scn, epoch) VALUES (?, ?, ?, -1, 0)"
                + " ON CONFLICT DO NOTHING";
    }
}
