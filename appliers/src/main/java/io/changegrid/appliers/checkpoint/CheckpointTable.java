package io.changegrid.appliers.checkpoint;

import io.changegrid.appliers.dialect.DdlLock;
import io.changegrid.appliers.dialect.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The checkpoint table in the target:
 *
 * <pre>
 * changegrid_checkpoint(consumer_group, partition_id, lane, scn, epoch, updated_at,
 *                       partial_scn, partial_index, snapshot_cursor, snapshot_seq, timeline)
 *                       primary key (consumer_group, partition_id, lane)
 * </pre>
 *
 * A lane's row says: every change routed to this lane from transactions at or below {@code scn} is
 * applied, and when {@code partial_scn > scn}, so are the changes routed to it from that
 * transaction at event indexes up to {@code partial_index} (a barrier committed it part-way; see
 * {@link LaneCheckpoint}). It is advanced in the same target transaction as those changes, and only
 * while the row's epoch is not newer than the writer's ({@code WHERE epoch <= ?}); zero rows
 * updated means a newer owner wrote it, i.e. this writer is fenced. The consumer resumes after the
 * lowest lane's SCN, and with the snapshot cursor ({@link SnapshotMark}) of the lowest lane by SCN
 * and cursor sequence. {@code timeline} is the identity of the relays' timeline the SCNs are on
 * (docs/consumer.md, "When the source server changes"), the same on every lane of a partition once
 * known; null in rows written before the consumer learnt it.
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
            if (!hasPartialColumns(connection)) {
                // A table made before lanes could hold part of a transaction.
                statement.execute(dialect.addPartialCheckpointColumns(name()));
            }
            if (!hasColumn(connection, "snapshot_cursor")) {
                // A table made before snapshots: no cursor yet, sequence 0.
                statement.execute(
                        "ALTER TABLE "
                                + name()
                                + " ADD COLUMN snapshot_cursor varchar(2048) NULL,"
                                + " ADD COLUMN snapshot_seq bigint NOT NULL DEFAULT 0");
            }
            if (!hasColumn(connection, "timeline")) {
                // A table made before timelines: the consumer learns it from the relays again.
                statement.execute(
                        "ALTER TABLE " + name() + " ADD COLUMN timeline varchar(256) NULL");
            }
        } finally {
            lock.close();
        }
    }

    private boolean hasPartialColumns(Connection connection) throws SQLException {
        return hasColumn(connection, "partial_scn");
    }

    private boolean hasColumn(Connection connection, String column) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT count(*) FROM information_schema.columns WHERE table_schema = ?"
                                + " AND table_name = ? AND column_name = ?")) {
            select.setString(1, namespace);
            select.setString(2, table);
            select.setString(3, column);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getInt(1) > 0;
            }
        }
    }

    /** The lanes' checkpoints by lane, lowest lane first; empty when this consumer wrote none. */
    public TreeMap<Integer, LaneCheckpoint> lanes(Connection connection) throws SQLException {
        TreeMap<Integer, LaneCheckpoint> lanes = new TreeMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT lane, scn, partial_scn, partial_index FROM "
                                + name()
                                + " WHERE consumer_group = ? AND partition_id = ?")) {
            select.setString(1, group);
            select.setInt(2, partition);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    lanes.put(
                            rows.getInt(1),
                            LaneCheckpoint.within(
                                    rows.getLong(2), rows.getLong(3), rows.getInt(4)));
                }
            }
        }
        return lanes;
    }

    /** The lanes' snapshot marks by lane; empty when this consumer wrote none. */
    public TreeMap<Integer, SnapshotMark> marks(Connection connection) throws SQLException {
        TreeMap<Integer, SnapshotMark> marks = new TreeMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT lane, snapshot_cursor, snapshot_seq FROM "
                                + name()
                                + " WHERE consumer_group = ? AND partition_id = ?")) {
            select.setString(1, group);
            select.setInt(2, partition);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    marks.put(rows.getInt(1), new SnapshotMark(rows.getString(2), rows.getLong(3)));
                }
            }
        }
        return marks;
    }

    /**
     * The snapshot mark to resume with: the lowest lane's by (SCN, sequence); {@link
     * SnapshotMark#NONE} without lanes.
     */
    public SnapshotMark resumeMark(Connection connection) throws SQLException {
        TreeMap<Integer, LaneCheckpoint> lanes = lanes(connection);
        TreeMap<Integer, SnapshotMark> marks = marks(connection);
        SnapshotMark lowest = null;
        long lowestScn = Long.MAX_VALUE;
        for (var lane : lanes.entrySet()) {
            SnapshotMark mark = marks.getOrDefault(lane.getKey(), SnapshotMark.NONE);
            long scn = lane.getValue().scn();
            if (lowest == null || scn < lowestScn || (scn == lowestScn && mark.before(lowest))) {
                lowest = mark;
                lowestScn = scn;
            }
        }
        return lowest == null ? SnapshotMark.NONE : lowest;
    }

    /**
     * The checkpoint to resume after: the lowest lane's SCN (a lane holding part of a transaction
     * has that transaction delivered again and skips its part); empty if none or all are -1.
     */
    public OptionalLong resumeScn(Connection connection) throws SQLException {
        TreeMap<Integer, LaneCheckpoint> lanes = lanes(connection);
        long min = lanes.values().stream().mapToLong(LaneCheckpoint::scn).min().orElse(-1);
        return min < 0 ? OptionalLong.empty() : OptionalLong.of(min);
    }

    /**
     * The timeline the lanes' SCNs are on; empty when no lane holds one (no lanes yet, or rows
     * written before the consumer learnt it).
     *
     * @throws IllegalStateException naming both when lanes hold different timelines, which only a
     *     hand edit of the table can cause: which one the SCNs are on is unknown
     */
    public Optional<String> timeline(Connection connection) throws SQLException {
        String found = null;
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT DISTINCT timeline FROM "
                                + name()
                                + " WHERE consumer_group = ? AND partition_id = ?"
                                + " AND timeline IS NOT NULL")) {
            select.setString(1, group);
            select.setInt(2, partition);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String timeline = rows.getString(1);
                    if (found != null && !found.equals(timeline)) {
                        throw new IllegalStateException(
                                "lanes of one partition hold different timelines: table="
                                        + name()
                                        + ", group="
                                        + group
                                        + ", partition="
                                        + partition
                                        + ", timelines="
                                        + found
                                        + ","
                                        + timeline);
                    }
                    found = timeline;
                }
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Writes the timeline on every lane row of the partition, fenced by the epoch like every
     * checkpoint write; autocommit or the caller's transaction.
     *
     * @throws FencedException if a row holds a newer epoch
     */
    public void saveTimeline(Connection connection, int laneCount, String timeline, long epoch)
            throws SQLException {
        try (PreparedStatement update =
                connection.prepareStatement(
                        "UPDATE "
                                + name()
                                + " SET timeline = ?, epoch = ?, updated_at = CURRENT_TIMESTAMP"
                                + " WHERE consumer_group = ? AND partition_id = ? AND epoch <= ?")) {
            update.setString(1, timeline);
            update.setLong(2, epoch);
            update.setString(3, group);
            update.setInt(4, partition);
            update.setLong(5, epoch);
            if (update.executeUpdate() < laneCount) {
                throw new FencedException(group, partition, -1, epoch);
            }
        }
    }

    /**
     * Makes sure there is a row for each of {@code laneCount} lanes, in one transaction. A changed
     * lane count is allowed only when every existing lane is at the same SCN (then nothing is half
     * applied and the new lanes start there); otherwise the lanes' split would differ from the one
     * that wrote the rows, and changes could be applied twice or never.
     *
     * @return each lane's checkpoint, lane 0 first
     * @throws IllegalStateException naming the lanes when the count changed while they disagree
     */
    public LaneCheckpoint[] prepareLanes(Connection connection, int laneCount) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            TreeMap<Integer, LaneCheckpoint> existing = lanes(connection);
            boolean sameLanes =
                    existing.isEmpty()
                            || (existing.size() == laneCount
                                    && existing.firstKey() == 0
                                    && existing.lastKey() == laneCount - 1);
            long common = existing.isEmpty() ? -1 : existing.firstEntry().getValue().scn();
            if (!sameLanes) {
                for (LaneCheckpoint lane : existing.values()) {
                    // A lane holding part of a transaction has work the new split would misroute.
                    if (lane.scn() != common || lane.partial()) {
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
            LaneCheckpoint[] lanes = byLane(lanes(connection), laneCount);
            connection.commit();
            return lanes;
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
     * @return each lane's checkpoint, lane 0 first
     * @throws FencedException if a lane row holds a newer epoch
     */
    public LaneCheckpoint[] claim(Connection connection, int laneCount, long epoch)
            throws SQLException {
        advanceAll(connection, laneCount, -1, epoch);
        return byLane(lanes(connection), laneCount);
    }

    private static LaneCheckpoint[] byLane(TreeMap<Integer, LaneCheckpoint> lanes, int count) {
        LaneCheckpoint[] byLane = new LaneCheckpoint[count];
        Arrays.fill(byLane, LaneCheckpoint.NONE);
        lanes.forEach(
                (lane, checkpoint) -> {
                    if (lane < count) {
                        byLane[lane] = checkpoint;
                    }
                });
        return byLane;
    }

    /** The statement {@link #advance} runs; prepare it once per connection. */
    public String advanceSql() {
        return "UPDATE "
                + name()
                + " SET scn = ?, partial_scn = ?, partial_index = ?, epoch = ?,"
                + " updated_at = CURRENT_TIMESTAMP, snapshot_cursor = ?, snapshot_seq = ?"
                + " WHERE consumer_group = ? AND partition_id = ? AND lane = ? AND epoch <= ?";
    }

    /**
     * Moves one lane's checkpoint inside the caller's transaction.
     *
     * @param advance a statement prepared from {@link #advanceSql()} on the transaction's
     *     connection
     * @throws FencedException if the row holds a newer epoch
     */
    public void advance(
            PreparedStatement advance, int lane, LaneCheckpoint to, SnapshotMark mark, long epoch)
            throws SQLException {
        advance.setLong(1, to.scn());
        advance.setLong(2, to.partial() ? to.partialScn() : -1);
        advance.setInt(3, to.partial() ? to.partialIndex() : -1);
        advance.setLong(4, epoch);
        advance.setString(5, mark.cursor());
        advance.setLong(6, mark.sequence());
        advance.setString(7, group);
        advance.setInt(8, partition);
        advance.setInt(9, lane);
        advance.setLong(10, epoch);
        if (advance.executeUpdate() == 0) {
            throw new FencedException(group, partition, lane, epoch);
        }
    }

    /**
     * Moves every lane to at least {@code scn} (progress without rows: heartbeats, schema changes)
     * inside the caller's transaction. A lane's partial transaction at or below {@code scn} is then
     * covered by its SCN and reads as no partial part ({@link LaneCheckpoint#within}).
     *
     * @throws FencedException if a row holds a newer epoch
     */
    public void advanceAll(Connection connection, int laneCount, long scn, long epoch)
            throws SQLException {
        advanceAll(connection, laneCount, scn, null, epoch);
    }

    /**
     * As {@link #advanceAll(Connection, int, long, long)}, writing {@code mark} on every lane too
     * (a snapshot cursor that moved without rows), in the same statement.
     *
     * @param mark the snapshot mark to write, or null to leave the lanes' marks
     * @throws FencedException if a row holds a newer epoch
     */
    public void advanceAll(
            Connection connection, int laneCount, long scn, SnapshotMark mark, long epoch)
            throws SQLException {
        String setMark = mark == null ? "" : ", snapshot_cursor = ?, snapshot_seq = ?";
        try (PreparedStatement update =
                connection.prepareStatement(
                        "UPDATE "
                                + name()
                                + " SET scn = GREATEST(scn, ?), epoch = ?,"
                                + " updated_at = CURRENT_TIMESTAMP"
                                + setMark
                                + " WHERE consumer_group = ? AND partition_id = ? AND epoch <= ?")) {
            int at = 1;
            update.setLong(at++, scn);
            update.setLong(at++, epoch);
            if (mark != null) {
                update.setString(at++, mark.cursor());
                update.setLong(at++, mark.sequence());
            }
            update.setString(at++, group);
            update.setInt(at++, partition);
            update.setLong(at, epoch);
            if (update.executeUpdate() < laneCount) {
                throw new FencedException(group, partition, -1, epoch);
            }
        }
    }
}
