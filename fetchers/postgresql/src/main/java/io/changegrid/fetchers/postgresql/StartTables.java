package io.changegrid.fetchers.postgresql;

import io.changegrid.policy.capture.TableFilter;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The captured tables with their columns and primary keys, read from the catalog as of one moment:
 * what becomes version 1 of each table's schema when the fetcher starts without history for it.
 *
 * <p>{@link #readNow} reads the catalog as it is; {@link #readAtSnapshot} reads it in the snapshot
 * a new replication slot exported, which is exactly the database at the slot's consistent point: a
 * DDL committed before that point is visible, one committed after it is not (and comes through the
 * slot as a changed Relation message instead).
 *
 * @param columns each captured table's published columns, in name order of the tables
 * @param keys each captured table's primary key columns, in key order
 */
record StartTables(
        Map<PgCatalog.Table, List<PgCatalog.TypedColumn>> columns,
        Map<PgCatalog.Table, List<String>> keys) {

    /** What PostgreSQL's exported snapshot names look like, e.g. {@code 00000003-00000002-1}. */
    private static final Pattern SNAPSHOT_NAME = Pattern.compile("[0-9A-Fa-f-]{1,64}");

    StartTables {
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    /** The captured tables as the catalog has them now. */
    static StartTables readNow(PgCatalog catalog, TableFilter capture) throws SQLException {
        Map<PgCatalog.Table, List<PgCatalog.TypedColumn>> columns = new LinkedHashMap<>();
        Map<PgCatalog.Table, List<String>> keys = new LinkedHashMap<>();
        for (var table : catalog.capturedTables(capture)) {
            columns.put(table, catalog.columns(table.oid()));
            keys.put(table, catalog.primaryKey(table.oid()));
        }
        return new StartTables(columns, keys);
    }

    /**
     * The captured tables as of an exported snapshot, read on the catalog's (normal, autocommit)
     * connection in one REPEATABLE READ transaction whose first statement adopts the snapshot.
     *
     * <p>The snapshot is valid only while the replication connection that exported it is open and
     * has run no other command: the caller keeps it so until this returns.
     *
     * @throws FetchFailedException if the name is not a snapshot name or the server refuses it
     */
    static StartTables readAtSnapshot(PgCatalog catalog, TableFilter capture, String snapshot)
            throws SQLException {
        if (snapshot == null || !SNAPSHOT_NAME.matcher(snapshot).matches()) {
            throw new FetchFailedException(
                    "the new slot exported no usable snapshot to read its start schemas in:"
                            + " snapshot="
                            + snapshot);
        }
        var connection = catalog.connection();
        if (!connection.getAutoCommit()) {
            // The transaction is begun here, explicitly: pgjdbc would otherwise begin one with a
            // statement of its own before SET TRANSACTION SNAPSHOT, which must come first.
            throw new IllegalStateException("catalog connection must be in autocommit mode");
        }
        boolean committed = false;
        try (var statement = connection.createStatement()) {
            statement.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
            try {
                statement.execute("SET TRANSACTION SNAPSHOT '" + snapshot + "'");
            } catch (SQLException e) {
                throw new FetchFailedException(
                        "the server refused the new slot's snapshot: snapshot="
                                + snapshot
                                + ", reason="
                                + e.getMessage(),
                        e);
            }
            StartTables tables = readNow(catalog, capture);
            statement.execute("COMMIT");
            committed = true;
            return tables;
        } finally {
            if (!committed) {
                rollback(connection);
            }
        }
    }

    private static void rollback(java.sql.Connection connection) {
        try (var statement = connection.createStatement()) {
            statement.execute("ROLLBACK"); // a warning only when no transaction is open
        } catch (SQLException e) {
            // The connection is broken: the fetcher's open fails with the first error and closes
            // it.
            org.slf4j.LoggerFactory.getLogger(StartTables.class)
                    .debug("rollback of the snapshot read failed; the connection is closed", e);
        }
    }
}
