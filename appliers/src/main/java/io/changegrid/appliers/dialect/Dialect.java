package io.changegrid.appliers.dialect;

import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.appliers.typemap.TypeMapper;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * The SQL forms of one kind of target database. Stateless and thread-safe.
 *
 * <p>Writes are blind: an upsert by primary key ({@code INSERT ... ON CONFLICT DO UPDATE} or {@code
 * INSERT ... ON DUPLICATE KEY UPDATE}) and a delete by primary key, so applying a change never
 * reads the target row first.
 */
public sealed interface Dialect permits PostgresDialect, MariaDbDialect {

    /**
     * The dialect of a JDBC URL.
     *
     * @throws IllegalArgumentException naming the URL if it is neither PostgreSQL nor MariaDB/MySQL
     */
    static Dialect of(String jdbcUrl) {
        String url = jdbcUrl.toLowerCase(Locale.ROOT);
        if (url.startsWith("jdbc:postgresql:")) {
            return new PostgresDialect();
        }
        if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
            return new MariaDbDialect();
        }
        throw new IllegalArgumentException(
                "unsupported target, expected jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql:"
                        + " url="
                        + jdbcUrl);
    }

    /** The target's name in messages. */
    String name();

    /** How source columns become this target's columns. */
    TypeMapper types();

    /** An identifier quoted for this target. */
    String quote(String identifier);

    /** {@code namespace.table}, quoted. */
    default String qualified(String namespace, String table) {
        return quote(namespace) + "." + quote(table);
    }

    /** Driver properties the applier's connections need (batch rewriting). */
    Properties connectionProperties();

    /**
     * Whether the same work may succeed when retried: a lost connection, a deadlock, a
     * serialization failure, a lock wait timeout, a server shutting down or out of resources.
     * Everything else (a constraint, a value out of range or truncated, a syntax error) fails the
     * same way again, so the applier stops on it. Each target classifies its own errors (by
     * SQLSTATE on PostgreSQL, by error code on MariaDB/MySQL, whose driver calls unknown states
     * transient); the causes of a wrapped error are looked at too.
     */
    default boolean isTransient(SQLException error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && transientCause(sql)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether this one error, not its causes, is transient ({@link #isTransient}). SQLSTATEs the
     * applier itself raises count on every target: {@code 40001} (rows kept appearing between a
     * conflict check and its write) and {@code HYT00} (the DDL lock not acquired in time).
     */
    boolean transientCause(SQLException error);

    /** Session settings run once on every new connection. */
    void prepareSession(Connection connection) throws SQLException;

    /**
     * Takes the target-wide DDL lock, waiting for it. On a connection in a transaction the lock is
     * released when the transaction ends (so the DDL is committed before another applier looks); on
     * an autocommit connection when the returned lock is closed.
     *
     * @throws SQLException if the lock cannot be had (MariaDB/MySQL: within a minute)
     */
    DdlLock lockDdl(Connection connection) throws SQLException;

    /** Whether DDL is transactional: PostgreSQL yes, MariaDB/MySQL commit around every DDL. */
    boolean transactionalDdl();

    /** The blind upsert of one row by its primary key. */
    String upsert(String table, List<TargetColumn> columns, List<TargetColumn> key);

    /** A plain insert of one row; fails on an existing key. */
    default String insert(String table, List<TargetColumn> columns) {
        StringJoiner names = new StringJoiner(", ", "(", ")");
        StringJoiner values = new StringJoiner(", ", "(", ")");
        for (TargetColumn column : columns) {
            names.add(quote(column.name()));
            values.add(column.placeholder());
        }
        return "INSERT INTO " + table + " " + names + " VALUES " + values;
    }

    /**
     * Whether rows the source inserted are first written with a plain {@link #insert} (falling back
     * to upserts for the whole commit when one meets an existing key): where an upsert costs much
     * more than an insert.
     */
    boolean optimisticInserts();

    /**
     * A query for the names of a table's unique keys other than its primary key; parameters: the
     * namespace and the table name.
     */
    String otherUniqueKeysQuery();

    /**
     * A query for the names of the foreign keys a table takes part in, as the referencing or the
     * referenced table; parameters: the namespace and the table name, twice.
     */
    String foreignKeysQuery();

    /**
     * The update of some columns of one row by its primary key: parameters are the columns in
     * order, then the key in key order. Its update count says whether the row was there.
     */
    default String update(String table, List<TargetColumn> columns, List<TargetColumn> key) {
        StringJoiner set = new StringJoiner(", ");
        for (TargetColumn column : columns) {
            set.add(quote(column.name()) + " = " + column.placeholder());
        }
        StringJoiner where = new StringJoiner(" AND ");
        for (TargetColumn column : key) {
            where.add(quote(column.name()) + " = " + column.placeholder());
        }
        return "UPDATE " + table + " SET " + set + " WHERE " + where;
    }

    /** The delete of one row by its primary key. */
    default String delete(String table, List<TargetColumn> key) {
        StringJoiner where = new StringJoiner(" AND ");
        for (TargetColumn column : key) {
            where.add(quote(column.name()) + " = " + column.placeholder());
        }
        return "DELETE FROM " + table + " WHERE " + where;
    }

    /**
     * A key value as a parameter in a SELECT list, typed as the column where the target needs it.
     */
    default String keyParameter(TargetColumn column) {
        return column.placeholder();
    }

    /**
     * What ends a SELECT that reads target rows (aliased {@code t}) to write them in the same
     * transaction: it locks the rows read until the transaction ends.
     */
    String lockRowsRead();

    /** Creates a schema (PostgreSQL) or database (MariaDB) if it does not exist. */
    String createNamespace(String namespace);

    /** Creates a table with these columns and primary key. */
    default String createTable(String table, List<TargetColumn> columns, List<TargetColumn> key) {
        List<String> parts = new ArrayList<>();
        for (TargetColumn column : columns) {
            parts.add(columnDefinition(column));
        }
        if (!key.isEmpty()) {
            StringJoiner keyNames = new StringJoiner(", ", "PRIMARY KEY (", ")");
            for (TargetColumn column : key) {
                keyNames.add(quote(column.name()));
            }
            parts.add(keyNames.toString());
        }
        return "CREATE TABLE " + table + " (" + String.join(", ", parts) + ")" + tableOptions();
    }

    /** What follows a CREATE TABLE's column list. */
    default String tableOptions() {
        return "";
    }

    /** {@code name type [NOT NULL]}. */
    default String columnDefinition(TargetColumn column) {
        return quote(column.name())
                + " "
                + column.declaration()
                + (column.source().nullable() ? nullable(column) : " NOT NULL");
    }

    /** What declares a column nullable; empty where that is the default. */
    default String nullable(TargetColumn column) {
        return "";
    }

    default String addColumn(String table, TargetColumn column) {
        return "ALTER TABLE " + table + " ADD COLUMN " + columnDefinition(column);
    }

    default String dropColumn(String table, String column) {
        return "ALTER TABLE " + table + " DROP COLUMN " + quote(column);
    }

    default String renameColumn(String table, String from, String to) {
        return "ALTER TABLE " + table + " RENAME COLUMN " + quote(from) + " TO " + quote(to);
    }

    /** Changes a column's type (and nullability) to the target form of its new source type. */
    String alterColumnType(String table, TargetColumn column);

    /** Creates the checkpoint table if it does not exist. */
    String createCheckpointTable(String table);

    /**
     * The table of parked source tables ({@link
     * io.changegrid.appliers.checkpoint.DeadLetterTable}), if missing.
     */
    String createParkedTable(String table);

    /**
     * The dead-letter table: the recorded changes of parked tables ({@link
     * io.changegrid.appliers.checkpoint.DeadLetterTable}), if missing.
     */
    String createDeadLetterTable(String table);

    /** Adds the partial-transaction columns to a checkpoint table made without them. */
    default String addPartialCheckpointColumns(String table) {
        return "ALTER TABLE "
                + table
                + " ADD COLUMN partial_scn bigint NOT NULL DEFAULT -1,"
                + " ADD COLUMN partial_index integer NOT NULL DEFAULT -1";
    }

    /**
     * Inserts a lane's checkpoint row at SCN -1, epoch 0, unless it exists. Parameters: consumer
     * group, partition, lane.
     */
    String insertCheckpointIfAbsent(String table);
}
