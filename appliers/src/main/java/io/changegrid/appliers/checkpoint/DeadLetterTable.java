package io.changegrid.appliers.checkpoint;

import io.changegrid.appliers.dialect.DdlLock;
import io.changegrid.appliers.dialect.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parked tables and their recorded changes, in two tables beside the checkpoint table ({@code
 * apply.refusedRows=park}):
 *
 * <pre>
 * changegrid_checkpoint_parked(consumer_group, partition_id, table_name, error,
 *                              resume_requested, parked_at)
 *                              primary key (consumer_group, partition_id, table_name)
 * changegrid_checkpoint_dead_letter(consumer_group, partition_id, table_name, scn, event_index,
 *                                   part, operation, event, table_schema, recorded_at)
 *                                   primary key (consumer_group, partition_id, table_name,
 *                                                scn, event_index, part)
 * </pre>
 *
 * A source table is parked while it has a row in the first table; the row holds the error that
 * parked it. Each change of a parked table is a row of the second, written in the same target
 * transaction as the lane checkpoint that moves past it: {@code event} is the change event as the
 * relay's JSON, {@code table_schema} its table's schema as JSON, {@code part} 0 for a whole event,
 * 1 and 2 for the delete of the old key and the upsert of the new one of a key-changing update (the
 * two may be in different lanes). The primary key is source order, in which changes are replayed.
 *
 * <p>Stateless apart from its names; the connection passed in decides the transaction.
 */
public final class DeadLetterTable {

    /** A parked table: the error that parked it and whether an operator asked to resume it. */
    public record Parked(String table, String error, boolean resumeRequested) {}

    /** One recorded change of a parked table; see the class doc for the fields. */
    public record Recorded(
            String table,
            long scn,
            int index,
            int part,
            String operation,
            String event,
            String schema) {}

    private final Dialect dialect;
    private final String namespace;
    private final String checkpointTable;
    private final String parkedTable;
    private final String deadLetterTable;
    private final String group;
    private final int partition;

    /**
     * @param namespace the schema/database of the checkpoint table, where these two live too
     * @param checkpointTable the checkpoint table's name, which prefixes theirs
     */
    public DeadLetterTable(
            Dialect dialect,
            String namespace,
            String checkpointTable,
            String group,
            int partition) {
        this.dialect = dialect;
        this.namespace = namespace;
        this.checkpointTable = checkpointTable;
        this.parkedTable = dialect.qualified(namespace, checkpointTable + "_parked");
        this.deadLetterTable = dialect.qualified(namespace, checkpointTable + "_dead_letter");
        this.group = group;
        this.partition = partition;
    }

    /** The qualified name of the table of parked tables, for messages to the operator. */
    public String parkedTableName() {
        return parkedTable;
    }

    /** The qualified name of the dead-letter table, for messages to the operator. */
    public String deadLetterTableName() {
        return deadLetterTable;
    }

    /** Creates both tables (and the namespace) if missing; autocommit connection, DDL lock. */
    public void create(Connection connection) throws SQLException {
        DdlLock lock = dialect.lockDdl(connection);
        try (Statement statement = connection.createStatement()) {
            statement.execute(dialect.createNamespace(namespace));
            statement.execute(dialect.createParkedTable(parkedTable));
            statement.execute(dialect.createDeadLetterTable(deadLetterTable));
        } finally {
            lock.close();
        }
    }

    /** Whether the table of parked tables exists (an applier with parking on made it). */
    public boolean exists(Connection connection) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT count(*) FROM information_schema.tables WHERE table_schema = ?"
                                + " AND table_name = ?")) {
            select.setString(1, namespace);
            select.setString(2, checkpointTable + "_parked");
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getInt(1) > 0;
            }
        }
    }

    /** This consumer's parked tables by name. */
    public Map<String, Parked> parked(Connection connection) throws SQLException {
        Map<String, Parked> parked = new LinkedHashMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT table_name, error, resume_requested FROM "
                                + parkedTable
                                + " WHERE consumer_group = ? AND partition_id = ?"
                                + " ORDER BY table_name")) {
            select.setString(1, group);
            select.setInt(2, partition);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    parked.put(
                            rows.getString(1),
                            new Parked(rows.getString(1), rows.getString(2), rows.getBoolean(3)));
                }
            }
        }
        return parked;
    }

    /** Parks {@code table} with {@code error}, or replaces the error of a parked table. */
    public void park(Connection connection, String table, String error) throws SQLException {
        try (PreparedStatement update =
                connection.prepareStatement(
                        "UPDATE "
                                + parkedTable
                                + " SET error = ?, resume_requested = ?"
                                + " WHERE consumer_group = ? AND partition_id = ? AND table_name = ?")) {
            update.setString(1, error);
            update.setBoolean(2, false);
            update.setString(3, group);
            update.setInt(4, partition);
            update.setString(5, table);
            if (update.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO "
                                + parkedTable
                                + " (consumer_group, partition_id, table_name, error)"
                                + " VALUES (?, ?, ?, ?)")) {
            insert.setString(1, group);
            insert.setInt(2, partition);
            insert.setString(3, table);
            insert.setString(4, error);
            insert.executeUpdate();
        }
    }

    /** Unparks {@code table}: deletes its row, inside the caller's transaction. */
    public void unpark(Connection connection, String table) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement(
                        "DELETE FROM "
                                + parkedTable
                                + " WHERE consumer_group = ? AND partition_id = ? AND table_name = ?")) {
            delete.setString(1, group);
            delete.setInt(2, partition);
            delete.setString(3, table);
            delete.executeUpdate();
        }
    }

    /** Records one change of a parked table, inside the caller's transaction. */
    public void record(Connection connection, Recorded change) throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO "
                                + deadLetterTable
                                + " (consumer_group, partition_id, table_name, scn, event_index,"
                                + " part, operation, event, table_schema)"
                                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, group);
            insert.setInt(2, partition);
            insert.setString(3, change.table());
            insert.setLong(4, change.scn());
            insert.setInt(5, change.index());
            insert.setInt(6, change.part());
            insert.setString(7, change.operation());
            insert.setString(8, change.event());
            insert.setString(9, change.schema());
            insert.executeUpdate();
        }
    }

    /** Up to {@code limit} of {@code table}'s oldest recorded changes, in source order. */
    public List<Recorded> oldest(Connection connection, String table, int limit)
            throws SQLException {
        List<Recorded> changes = new ArrayList<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT scn, event_index, part, operation, event, table_schema FROM "
                                + deadLetterTable
                                + " WHERE consumer_group = ? AND partition_id = ? AND table_name = ?"
                                + " ORDER BY scn, event_index, part")) {
            select.setMaxRows(limit);
            select.setString(1, group);
            select.setInt(2, partition);
            select.setString(3, table);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next() && changes.size() < limit) {
                    changes.add(
                            new Recorded(
                                    table,
                                    rows.getLong(1),
                                    rows.getInt(2),
                                    rows.getInt(3),
                                    rows.getString(4),
                                    rows.getString(5),
                                    rows.getString(6)));
                }
            }
        }
        return changes;
    }

    /**
     * Deletes {@code table}'s recorded changes up to and including {@code last} in source order,
     * inside the caller's transaction.
     */
    public void deleteThrough(Connection connection, Recorded last) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement(
                        "DELETE FROM "
                                + deadLetterTable
                                + " WHERE consumer_group = ? AND partition_id = ? AND table_name = ?"
                                + " AND (scn, event_index, part) <= (?, ?, ?)")) {
            delete.setString(1, group);
            delete.setInt(2, partition);
            delete.setString(3, last.table());
            delete.setLong(4, last.scn());
            delete.setInt(5, last.index());
            delete.setInt(6, last.part());
            delete.executeUpdate();
        }
    }
}
