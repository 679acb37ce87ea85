package io.changegrid.appliers.conflict;

import io.changegrid.appliers.batch.RowKey;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.appliers.schema.VersionColumns;
import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.policy.conflict.RowVersion;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Reads and locks the current versions of many rows with one query per {@value #CHUNK} keys: the
 * rows read stay locked ({@code FOR UPDATE}) until the caller's transaction ends, so nobody can
 * change them between the conflict decision and the write. The keys are sent as a derived table
 * numbered by position and joined to the target table, so the answer is matched back by number,
 * never by comparing driver values with event values. Rows with no version (written by something
 * else than an applier) read as {@link #UNKNOWN_WRITER}.
 *
 * <p>Stateless; the caller's connection and transaction.
 */
public final class VersionReader {

    /** Keys per query. */
    static final int CHUNK = 200;

    /**
     * The version of a row that exists without one: source id {@code Integer.MAX_VALUE} (ranks
     * after every listed source), SCN 0 and commit time 0, so any versioned change is newer.
     */
    public static final RowVersion UNKNOWN_WRITER = new RowVersion(Integer.MAX_VALUE, 0, 0);

    private final Dialect dialect;

    public VersionReader(Dialect dialect) {
        this.dialect = dialect;
    }

    /**
     * @return the current version of each key that has a row; keys without a row are absent
     */
    public Map<RowKey, RowVersion> read(Connection connection, TargetTable table, List<RowKey> keys)
            throws SQLException {
        Map<RowKey, RowVersion> versions = new HashMap<>();
        for (int from = 0; from < keys.size(); from += CHUNK) {
            List<RowKey> chunk = keys.subList(from, Math.min(keys.size(), from + CHUNK));
            try (PreparedStatement select = connection.prepareStatement(sql(table, chunk.size()))) {
                int p = 1;
                for (RowKey key : chunk) {
                    table.bindKeyAt(select, p, key.values());
                    p += key.values().length;
                }
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        RowKey key = chunk.get(rows.getInt(1));
                        long source = rows.getLong(2);
                        versions.put(
                                key,
                                rows.wasNull()
                                        ? UNKNOWN_WRITER
                                        : new RowVersion(
                                                (int) source, rows.getLong(3), rows.getLong(4)));
                    }
                }
            }
        }
        return versions;
    }

    private String sql(TargetTable table, int count) {
        List<TargetColumn> key = table.key();
        StringJoiner keys = new StringJoiner(" UNION ALL ");
        for (int i = 0; i < count; i++) {
            StringJoiner select = new StringJoiner(", ", "SELECT ", "");
            select.add(i + (i == 0 ? " AS cg_i" : ""));
            for (int k = 0; k < key.size(); k++) {
                select.add(dialect.keyParameter(key.get(k)) + (i == 0 ? " AS cg_k" + k : ""));
            }
            keys.add(select.toString());
        }
        StringJoiner on = new StringJoiner(" AND ");
        for (int k = 0; k < key.size(); k++) {
            on.add("t." + dialect.quote(key.get(k).name()) + " = v.cg_k" + k);
        }
        return "SELECT v.cg_i, t."
                + dialect.quote(VersionColumns.SOURCE)
                + ", t."
                + dialect.quote(VersionColumns.SCN)
                + ", t."
                + dialect.quote(VersionColumns.COMMIT_MICROS)
                + " FROM ("
                + keys
                + ") v JOIN "
                + table.name()
                + " t ON "
                + on
                + dialect.lockRowsRead();
    }
}
