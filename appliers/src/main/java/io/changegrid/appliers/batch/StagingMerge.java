package io.changegrid.appliers.batch;

import io.changegrid.appliers.dialect.PostgresDialect;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.appliers.typemap.PostgresCopyText;
import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.appliers.typemap.ValueNotRepresentableException;
import io.changegrid.policy.conflict.RowVersion;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * A lane's bulk path into PostgreSQL, as Tungsten loads Vertica: a commit's rows of one table go
 * into a temporary staging table by {@code COPY ... FROM STDIN}, then one {@code DELETE ... USING}
 * removes the rows staged as deletes and one {@code INSERT ... SELECT ... ON CONFLICT DO UPDATE}
 * writes the staged images, all in the lane's open transaction, before its checkpoint row. The lane
 * has already reduced the commit to each key's last change, so per-key last-write order holds, and
 * a key change arrives as the old key's delete and the new key's upsert.
 *
 * <p>Staging tables are {@code TEMP ... ON COMMIT DELETE ROWS}, one per target table version and
 * session, made (and committed) on first use, before the commit's transaction writes anything.
 *
 * <p>Threading: used by its lane only.
 */
final class StagingMerge {

    /** COPY data is sent in chunks of about this many characters. */
    private static final int CHUNK_CHARS = 256 * 1024;

    private final Connection connection;
    private final PostgresDialect dialect;
    private final CopyManager copy;
    private final Map<TargetTable, Staged> staged = new HashMap<>();
    private int nextName = 1;
    private final StringBuilder text = new StringBuilder(CHUNK_CHARS + 16 * 1024);

    /** A target table's staging table and the statements that fill and merge it. */
    private record Staged(String copySql, String deleteSql, String upsertSql) {}

    StagingMerge(Connection connection, PostgresDialect dialect) throws SQLException {
        this.connection = connection;
        this.dialect = dialect;
        this.copy = connection.unwrap(PGConnection.class).getCopyAPI();
    }

    /**
     * Makes the staging tables of these target tables that this session lacks, and commits: a
     * staging table made inside a commit's transaction would vanish with its rollback.
     *
     * @param tables the tables of the commit about to be written; no row of it is written yet
     */
    void prepare(Iterable<TargetTable> tables) throws SQLException {
        List<TargetTable> made = new ArrayList<>();
        try {
            for (TargetTable table : tables) {
                if (!staged.containsKey(table)) {
                    // Names are never reused: a failed attempt's table may exist or not.
                    String name = "cg_stage_" + nextName++;
                    try (Statement statement = connection.createStatement()) {
                        statement.execute(dialect.createStagingTable(name, table.columns()));
                    }
                    staged.put(
                            table,
                            new Staged(
                                    dialect.copyIntoStaging(name, table.columns()),
                                    dialect.mergeDeletes(table.name(), name, table.key()),
                                    dialect.mergeUpserts(
                                            table.name(), name, table.columns(), table.key())));
                    made.add(table);
                }
            }
            if (!made.isEmpty()) {
                connection.commit();
            }
        } catch (SQLException | RuntimeException e) {
            made.forEach(staged::remove); // rolled back with the lane's transaction
            throw e;
        }
    }

    /**
     * Stages and merges one table's changes in the open transaction.
     *
     * @return the rows written (deletes and upserts)
     */
    int write(TargetTable table, Map<RowKey, Lane.Change> rows) throws SQLException {
        Staged statements = staged.get(table);
        if (statements == null) {
            throw new IllegalStateException("staging table not prepared: table=" + table);
        }
        int deletes = 0;
        int upserts = 0;
        CopyIn in = copy.copyIn(statements.copySql());
        try {
            text.setLength(0);
            for (Map.Entry<RowKey, Lane.Change> row : rows.entrySet()) {
                Lane.Change change = row.getValue();
                int mark = text.length();
                try {
                    if (change.row() == null) {
                        appendDelete(table, row.getKey().values());
                        deletes++;
                    } else {
                        appendImage(table, change.row(), change.version());
                        upserts++;
                    }
                } catch (ValueNotRepresentableException e) {
                    text.setLength(mark);
                    throw FailedRow.refused(table, row.getKey(), change, e);
                }
                if (text.length() >= CHUNK_CHARS) {
                    send(in);
                }
            }
            send(in);
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
        try (Statement statement = connection.createStatement()) {
            if (deletes > 0) {
                statement.executeUpdate(statements.deleteSql());
            }
            if (upserts > 0) {
                statement.executeUpdate(statements.upsertSql());
            }
        } catch (SQLException e) {
            // One merge statement per table: the server's message may name the column, not the row.
            throw FailedRow.of(
                    table, new ArrayList<>(rows.keySet()), new ArrayList<>(rows.values()), e);
        }
        return deletes + upserts;
    }

    private void send(CopyIn in) throws SQLException {
        if (text.length() > 0) {
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            in.writeToCopy(bytes, 0, bytes.length);
            text.setLength(0);
        }
    }

    /** A delete: the key's values, every other column NULL. */
    private void appendDelete(TargetTable table, Object[] keyValues) {
        text.append('t');
        List<TargetColumn> key = table.key();
        for (TargetColumn column : table.columns()) {
            text.append('\t');
            int at = key.indexOf(column);
            if (at >= 0) {
                PostgresCopyText.append(text, column.source(), keyValues[at]);
            } else {
                PostgresCopyText.appendNull(text);
            }
        }
        text.append('\n');
    }

    /** An upsert: the whole image, then the version columns of a versioned table. */
    private void appendImage(TargetTable table, Object[] row, RowVersion version) {
        text.append('f');
        int sourceColumns = table.schema().columnCount();
        List<TargetColumn> columns = table.columns();
        for (int i = 0; i < sourceColumns; i++) {
            text.append('\t');
            if (row[i] == null) {
                PostgresCopyText.appendNull(text);
            } else {
                PostgresCopyText.append(text, columns.get(i).source(), row[i]);
            }
        }
        if (table.versioned()) {
            text.append('\t').append(version.sourceId());
            text.append('\t').append(version.scn());
            text.append('\t').append(version.commitTimeMicros());
        }
        text.append('\n');
    }
}
