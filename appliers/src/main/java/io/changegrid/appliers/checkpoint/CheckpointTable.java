package io.changegrid.appliers.checkpoint;

import io.changegrid.appliers.dialect.DdlLock;
import io.changegrid.appliers.dialect.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The checkpoint table in the target:
 *
 * <pre>
 * changegrid_checkpoint(consumer_group, partition_id, lane, scn, epoch, updated_at)
 *                       primary key (consumer_group, partition_id, lane)
 * </pre>
 *
 * A lane's row says: every change routed to this lane from transactions at or below {@code scn} is
 * applied. It is advanced in the same target transaction as those changes, and only while the row's
 * epoch is not newer than the writer's ({@code WHERE epoch <= ?}); zero rows updated means a newer
 * owner wrote it, i.e. this writer is fenced. The consumer resumes after the lowest lane's SCN.
 *
 * <p>Stateless apart from its names; the connection passed in decides the transaction.
 */
public final class CheckpointTable {

    private final Dialect dialect;
    private final String namespace;
    private final String table;
    private final String group;
    private final int partition;

    /**
     * @param namespace the schema (PostgreSQL) or database (MariaDB) of the table
     * @param table the table's name
     * @param group the consumer group whose rows these are
     * @param partition the partition of the stream this consumer applies
     */
    public CheckpointTable(
            Dialect dialect, String namespace, String table, String group, int partition) {
        this.dialect = dialect;
        this.namespace = namespace;
        this.table = table;
        this.group = group;
        this.partition = partition;
    }

    public String group() {
        return group;
    }

    public int partition() {
        return partition;
    }

    private String name() {
        return dialect.qualified(namespace, table);
    }

    /**
     * Creates the table (and its namespace) if missing; autocommit connection. Under the target's
     * DDL lock: the appliers of a group's partitions start together, and PostgreSQL's {@code IF NOT
     * EXISTS} does not stop two sessions from both creating.
     */
    public void create(Connection connection) throws SQLException {
        DdlLock lock = dialect.lockDdl(connection);
        try (Statement statement = connection.createStatement()) {
            statement.execute(dialect.createNamespace(namespace));
            statement.execute(dialect.createCheckpointTable(name()));
        } finally {
            lock.close();
        }
    }

    /** The lanes' SCNs by lane, lowest lane first; empty when this consumer never wrote one. */
    public TreeMap<Integer, Long> lanes(Connection connection) throws SQLException {
        TreeMap<Integer, Long> lanes = new TreeMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT lane, scn FROM "
                                + name()
                                + " WHERE consumer_group = ? AND partition_id = ?")) {
            select.setString(1, group);
            select.setInt(2, partition);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    lanes.put(rows.getInt(1), rows.getLong(2));
                }
            }
        }
        return lanes;
    }

    /** The checkpoint to resume after: the lowest lane's SCN; empty if none or all are -1. */
    public OptionalLong resumeScn(Connection connection) throws SQLException {
        TreeMap<Integer, Long> lanes = lanes(connection);
        long min = lanes.values().stream().mapToLong(Long::longValue).min().orElse(-1);
        return min < 0 ? OptionalLong.empty() : OptionalLong.of(min);
    }

    /**
     * Makes sure there is a row for each of {@code laneCount} lanes, in one transaction. A changed
     * lane count is allowed only when every existing lane is at the same SCN (then nothing is half
     * applied and the new lanes start there); otherwise the lanes' split would differ from the one
     * that wrote the rows, and changes could be applied twice or never.
     *
     * @return each lane's SCN, lane 0 first
     * @throws IllegalStateException naming the lanes when the count changed while they disagree
     */
    public long[] prepareLanes(Connection connection, int laneCount) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            TreeMap<Integer, Long> existing = lanes(connection);
            boolean sameLanes =
                    existing.isEmpty()
                            || (existing.size() == laneCount
                                    && existing.firstKey() == 0
                                    && existing.lastKey() == laneCount - 1);
            long common = existing.isEmpty() ? -1 : existing.firstEntry().getValue();
            if (!sameLanes) {
                for (long scn : existing.values()) {
                    if (scn != common) {
                        throw new IllegalStateException(
                                "lane count changed while lanes are at different SCNs; restart with"
                                        + " the previous count until they meet: group="
                                        + group
                                        + ", partition="
                                        + partition
                                        + ", lanes="
                                        + existing
                                        + ", configured="
                                        + laneCount);
                    }
                }
                try (PreparedStatement delete =
                        connection.prepareStatement(
                                "DELETE FROM "
                                        + name()
                                        + " WHERE consumer_group = ? AND partition_id = ? AND lane >= ?")) {
                    delete.setString(1, group);
                    delete.setInt(2, partition);
                    delete.setInt(3, laneCount);
                    delete.executeUpdate();
                }
            }
            try (PreparedStatement insert =
                    connection.prepareStatement(dialect.insertCheckpointIfAbsent(name()))) {
                for (int lane = 0; lane < laneCount; lane++) {
                    insert.setString(1, group);
                    insert.setInt(2, partition);
                    insert.setInt(3, lane);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            if (!sameLanes && common >= 0) {
                // New lanes start where the old ones all were (checked equal above). Lanes of an
                // unchanged count are never raised: a lane behind the others has work to redo.
                try (PreparedStatement raise =
                        connection.prepareStatement(
                                "UPDATE "
                                        + name()
                                        + " SET scn = ? WHERE consumer_group = ? AND partition_id = ?"
                                        + " AND scn < ?")) {
                    raise.setLong(1, common);
                    raise.setString(2, group);
                    raise.setInt(3, partition);
                    raise.setLong(4, common);
                    raise.executeUpdate();
                }
            }
            TreeMap<Integer, Long> lanes = lanes(connection);
            connection.commit();
            long[] scns = new long[laneCount];
            for (int lane = 0; lane < laneCount; lane++) {
                scns[lane] = lanes.getOrDefault(lane, -1L);
            }
            return scns;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /**
     * Takes the lanes for an owner: stamps {@code epoch} on every lane row unless one holds a newer
     * epoch, without moving any SCN, then reads the lanes' SCNs. After this, a commit of an owner
     * with an older epoch matches no row and is rolled back, so the SCNs read here stay this
     * owner's to move. Epoch 0 (no cluster) changes nothing.
     *
     * @return each lane's SCN, lane 0 first
     * @throws FencedException if a lane row holds a newer epoch
     */
    public long[] claim(Connection connection, int laneCount, long epoch) throws SQLException {
        advanceAll(connection, laneCount, -1, epoch);
        TreeMap<Integer, Long> lanes = lanes(connection);
        long[] scns = new long[laneCount];
        for (int lane = 0; lane < laneCount; lane++) {
            scns[lane] = lanes.getOrDefault(lane, -1L);
        }
        return scns;
    }

    /** The statement {@link #advance} runs; prepare it once per connection. */
    public String advanceSql() {
        return "UPDATE "
                + name()
                + " SET scn = ?, epoch = ?, updated_at = CURRENT_TIMESTAMP"
                + " WHERE consumer_group = ? AND partition_id = ? AND lane = ? AND epoch <= ?";
    }

    /**
     * Moves one lane's checkpoint inside the caller's transaction.
     *
     * @param advance a statement prepared from {@link #advanceSql()} on the transaction's
     *     connection
     * @throws FencedException if the row holds a newer epoch
     */
    public void advance(PreparedStatement advance, int lane, long scn, long epoch)
            throws SQLException {
        advance.setLong(1, scn);
        advance.setLong(2, epoch);
        advance.setString(3, group);
        advance.setInt(4, partition);
        advance.setInt(5, lane);
        advance.setLong(6, epoch);
        if (advance.executeUpdate() == 0) {
            throw new FencedException(group, partition, lane, epoch);
        }
    }

    /**
     * Moves every lane to at least {@code scn} (progress without rows: heartbeats, schema changes)
     * inside the caller's transaction.
     *
     * @throws FencedException if a row holds a newer epoch
     */
    public void advanceAll(Connection connection, int laneCount, long scn, long epoch)
            throws SQLException {
        try (PreparedStatement update =
                connection.prepareStatement(
                        "UPDATE "
                                + name()
                                + " SET scn = GREATEST(scn, ?), epoch = ?,"
                                + " updated_at = CURRENT_TIMESTAMP"
                                + " WHERE consumer_group = ? AND partition_id = ? AND epoch <= ?")) {
            update.setLong(1, scn);
            update.setLong(2, epoch);
            update.setString(3, group);
            update.setInt(4, partition);
            update.setLong(5, epoch);
            if (update.executeUpdate() < laneCount) {
                throw new FencedException(group, partition, -1, epoch);
            }
        }
    }
}
