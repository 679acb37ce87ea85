package io.changegrid.appliers.batch;

import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.checkpoint.LaneCheckpoint;
import io.changegrid.appliers.checkpoint.SnapshotMark;
import io.changegrid.appliers.conflict.VersionReader;
import io.changegrid.appliers.dialect.PostgresDialect;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.policy.conflict.ConflictResolver;
import io.changegrid.policy.conflict.Resolution;
import io.changegrid.policy.conflict.RowVersion;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One micro-batch lane: a target connection, the row changes routed to it since its last commit,
 * and its checkpoint row.
 *
 * <p><b>Pending rows are coalesced per key</b>: a row's later change replaces its earlier one in
 * the same commit, so each key is written once per commit (its last image, or a delete). With every
 * key once, the statements of a commit need no order among themselves: per table the deletes run
 * first, then the upserts, each as one JDBC batch (or, with a {@link StagingMerge}, one COPY into a
 * staging table and one merge statement each). Nothing is read from the target, except with a
 * conflict resolver: then each commit reads and locks the versions of its rows first (one query per
 * table) and writes the changes the resolver applies, atomically with that decision.
 *
 * <p><b>Tables written in source order</b> ({@link TargetTable#sourceOrder}: target tables with
 * unique keys besides the primary key or in foreign keys, allowed with one lane only) are the
 * exception: their changes are kept apart, uncoalesced and in order, and written in that order
 * without upserts ({@link SourceOrderWrites}).
 *
 * <p>{@link #commit} writes the pending rows and the lane's checkpoint in one target transaction.
 *
 * <p>Threading: changes are added on the dispatcher thread; {@link #commit} runs on a committer
 * thread while the dispatcher waits for it; never both at once. The checkpoint and the counters may
 * be read from any thread.
 */
public final class Lane implements AutoCloseable {

    /** What a key's pending change writes. */
    enum Kind {
        DELETE,
        /** A row the source inserted: written by a plain INSERT where the dialect allows. */
        INSERT,
        UPSERT,
        /**
         * Some columns of a row the source updated in place: an UPDATE of those columns by key, and
         * an upsert of the whole image if the update finds no row.
         */
        UPDATE
    }

    /**
     * A key's pending change and the version of the source change it comes from; {@code row} is
     * {@code null} for a delete, {@code changed} the columns an UPDATE sets (else {@code null}).
     */
    record Change(Kind kind, Object[] row, RowVersion version, BitSet changed) {
        Change(Kind kind, Object[] row, RowVersion version) {
            this(kind, row, version, null);
        }
    }

    private final int id;
    private final Connection connection;
    private final CheckpointTable checkpoints;
    private final PreparedStatement advance;
    private final boolean optimisticInserts;
    private final ConflictResolver resolver;
    private final VersionReader versions;
    private final StagingMerge staging;
    private final Map<TargetTable, Map<RowKey, Change>> pending = new LinkedHashMap<>();
    private final CoalescedWrites coalesced;
    private final SourceOrderWrites ordered;

    /** Rows {@link #flush flushed} into the open target transaction, not committed yet. */
    private long flushedRows;

    private final List<TransactionStep> steps = new ArrayList<>();

    private int pendingRows;
    // Written by the committer thread, read by the dispatcher and by monitoring threads.
    private volatile LaneCheckpoint checkpoint;
    // The snapshot mark the next commit writes with the checkpoint: set by the dispatcher thread
    // before a commit round, read by the committing thread after the round's hand-over.
    private volatile SnapshotMark mark = SnapshotMark.NONE;
    // Counters: written by the committing thread only, read by monitoring threads.
    private volatile long rowsWritten;
    private volatile long insertFallbacks;
    private volatile long conflictsSkipped;
    private boolean broken;

    /**
     * @param connection a connection of its own, autocommit off
     * @param checkpoint the lane's checkpoint as the target holds it
     * @param optimisticInserts whether rows the source inserted are written with a plain INSERT
     *     first (cheaper than an upsert on MariaDB/MySQL), the whole commit being redone with
     *     upserts if one of them meets an existing key
     * @param resolver decides each change against the row's current version before a commit, or
     *     {@code null} for blind writes
     * @param versions reads current versions; used only with a resolver
     * @param staging PostgreSQL's dialect to write through a staging table and merge ({@code
     *     apply.mode=staging}), or {@code null} for JDBC batches of statements
     */
    public Lane(
            int id,
            Connection connection,
            CheckpointTable checkpoints,
            LaneCheckpoint checkpoint,
            boolean optimisticInserts,
            ConflictResolver resolver,
            VersionReader versions,
            PostgresDialect staging)
            throws SQLException {
        this.id = id;
        // With a resolver every write is decided first, so a plain insert would never conflict
        // by surprise: but it also never needs to, so upserts keep the path single.
        this.optimisticInserts = optimisticInserts && resolver == null;
        this.resolver = resolver;
        this.versions = versions;
        this.connection = connection;
        this.checkpoints = checkpoints;
        this.checkpoint = checkpoint;
        connection.setAutoCommit(false);
        this.advance = connection.prepareStatement(checkpoints.advanceSql());
        this.staging = staging == null ? null : new StagingMerge(connection, staging);
        this.coalesced = new CoalescedWrites(connection);
        this.ordered = new SourceOrderWrites(connection);
    }

    public int id() {
        return id;
    }

    /**
     * The snapshot mark (docs/bootstrap.md) the lane's next commit writes into its checkpoint row,
     * in the transaction of the snapshot rows it covers.
     */
    public void markSnapshot(SnapshotMark mark) {
        this.mark = mark;
    }

    /** What of the routed changes is in the target; safe to read from any thread. */
    public LaneCheckpoint checkpoint() {
        return checkpoint;
    }

    /** Whether the change at event {@code index} of transaction {@code scn} is in the target. */
    public boolean applied(long scn, int index) {
        return checkpoint.covers(scn, index);
    }

    /**
     * Records a checkpoint written for this lane elsewhere (a schema change's transaction); never
     * moves it backwards.
     */
    public void checkpointed(long scn) {
        checkpoint = checkpoint.max(LaneCheckpoint.after(scn));
    }

    /** Changes waiting for the next commit (after coalescing). */
    public int pendingRows() {
        return pendingRows;
    }

    /** Rows written (upserts and deletes sent) since the lane was made. */
    public long rowsWritten() {
        return rowsWritten;
    }

    /** Whether a change of this row waits here for a commit. */
    public boolean holds(TargetTable table, RowKey key) {
        Map<RowKey, Change> rows = pending.get(table);
        return (rows != null && rows.containsKey(key))
                || (table.sourceOrder() && ordered.holds(table, key));
    }

    /** Whether an error left the connection unusable; the applier then makes a new lane. */
    public boolean isBroken() {
        return broken;
    }

    /** Adds a blind upsert of {@code row}; replaces a pending change of the same key. */
    public void upsert(TargetTable table, RowKey key, Object[] row, RowVersion version) {
        put(table, key, new Change(Kind.UPSERT, row, version));
    }

    /**
     * Adds a row the source inserted: an upsert that may be tried as a plain insert first; replaces
     * a pending change of the same key.
     */
    public void insert(TargetTable table, RowKey key, Object[] row, RowVersion version) {
        put(table, key, new Change(Kind.INSERT, row, version));
    }

    /** Commits that were redone with upserts because a plain insert met an existing key. */
    public long insertFallbacks() {
        return insertFallbacks;
    }

    /**
     * Adds an update of the {@code changed} columns of a row whose key stays; {@code row} is the
     * whole after image. After a pending insert or upsert of the key the image replaces theirs;
     * after a pending update the columns add up.
     */
    public void update(
            TargetTable table, RowKey key, Object[] row, BitSet changed, RowVersion version) {
        if (table.sourceOrder()) {
            ordered.add(table, key, new Change(Kind.UPDATE, row, version, changed));
            pendingRows++;
            return;
        }
        Map<RowKey, Change> rows = pending.computeIfAbsent(table, t -> new LinkedHashMap<>());
        Change earlier = rows.get(key);
        Change change;
        if (earlier == null) {
            change = new Change(Kind.UPDATE, row, version, changed);
            pendingRows++;
        } else if (earlier.kind() == Kind.UPDATE) {
            BitSet both = (BitSet) earlier.changed().clone();
            both.or(changed);
            change = new Change(Kind.UPDATE, row, version, both);
        } else if (earlier.kind() == Kind.INSERT) {
            change = new Change(Kind.INSERT, row, version);
        } else {
            change = new Change(Kind.UPSERT, row, version);
        }
        rows.put(key, change);
    }

    /** Adds a delete by key; replaces a pending change of the same key. */
    public void delete(TargetTable table, RowKey key, RowVersion version) {
        put(table, key, new Change(Kind.DELETE, null, version));
    }

    /**
     * Adds statements to the next commit, run after the rows and before the checkpoint row, so they
     * commit exactly when the checkpoint does; counts as a pending row.
     */
    public void alsoCommit(TransactionStep step) {
        steps.add(step);
        pendingRows++;
    }

    /** Changes the conflict resolver kept out (skipped or rejected) since the lane was made. */
    public long conflictsSkipped() {
        return conflictsSkipped;
    }

    private void put(TargetTable table, RowKey key, Change change) {
        if (table.sourceOrder()) {
            ordered.add(table, key, change);
            pendingRows++;
            return;
        }
        if (pending.computeIfAbsent(table, t -> new LinkedHashMap<>()).put(key, change) == null) {
            pendingRows++;
        }
    }

    /**
     * Writes the pending rows, moves the lane's checkpoint to {@code to} (never backwards) and
     * commits, all in one target transaction.
     *
     * @throws io.changegrid.appliers.checkpoint.FencedException if a newer owner holds the lane
     * @throws SQLException from the target; the transaction is then rolled back by {@link
     *     #rollback}
     */
    public void commit(LaneCheckpoint to, long epoch) throws SQLException {
        LaneCheckpoint target = checkpoint.max(to);
        long written;
        try {
            if (resolver != null) {
                written = writeResolved();
            } else {
                if (staging != null) {
                    staging.prepare(pending.keySet()); // before the commit's transaction writes
                }
                written = writeBlind();
            }
            for (TransactionStep step : steps) {
                step.run(connection);
            }
            checkpoints.advance(advance, id, target, mark, epoch);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            broken = broken || isConnectionError(e);
            throw e;
        }
        checkpoint = target;
        rowsWritten += written + flushedRows;
        flushedRows = 0;
        pending.clear();
        ordered.clear();
        steps.clear();
        pendingRows = 0;
    }

    /**
     * Writes the pending rows into the open target transaction without committing it, and forgets
     * them: a source transaction larger than memory (one delivered in parts) is written as it comes
     * and committed once, at its end, by {@link #commit}. Upserts only (a plain insert that met an
     * existing row could not be redone without undoing the earlier flushes), and no staged merge
     * (its staging tables belong to a commit).
     *
     * @throws SQLException from the target; the transaction is then rolled back by {@link
     *     #rollback}
     */
    public void flush() throws SQLException {
        long written;
        try {
            if (resolver != null) {
                written = writeResolved();
            } else {
                written = 0;
                for (Map.Entry<TargetTable, Map<RowKey, Change>> entry : pending.entrySet()) {
                    if (!entry.getValue().isEmpty()) {
                        written += coalesced.write(entry.getKey(), entry.getValue(), false);
                    }
                }
                written += ordered.write(false);
            }
        } catch (SQLException | RuntimeException e) {
            broken = broken || isConnectionError(e);
            throw e;
        }
        flushedRows += written; // counted as written once committed
        pending.clear();
        ordered.clear();
        pendingRows = 0;
    }

    private long writeBlind() throws SQLException {
        try {
            return writeAll(optimisticInserts);
        } catch (SQLException e) {
            if (!optimisticInserts || !isDuplicateKey(e)) {
                throw e;
            }
            // A row the source inserted exists here (changed elsewhere, or its delete was
            // coalesced away): undo everything and write this commit with upserts only.
            connection.rollback();
            insertFallbacks++;
            return writeAll(false);
        }
    }

    /** Attempts at writing a resolved commit before a concurrent writer counts as contention. */
    private static final int RESOLVE_ATTEMPTS = 8;

    /**
     * Decides every pending change against the row's current version and writes the applied ones,
     * atomically with the decision: the version read locks the rows it finds, and a change whose
     * row was missing is written with a plain INSERT, which fails if someone inserted the row
     * since. Then the writes are undone to a savepoint and those keys decided again against the row
     * that appeared.
     */
    private long writeResolved() throws SQLException {
        resolve(pending);
        for (int attempt = 1; ; attempt++) {
            Savepoint beforeWrites = connection.setSavepoint();
            try {
                long written = writeAll(true);
                connection.releaseSavepoint(beforeWrites);
                return written;
            } catch (SQLException e) {
                if (!isDuplicateKey(e)) {
                    throw e;
                }
                connection.rollback(beforeWrites);
                if (attempt == RESOLVE_ATTEMPTS) {
                    // 40001: transient, the consumer retries the batch.
                    throw new SQLException(
                            "rows kept appearing between conflict check and write: lane="
                                    + id
                                    + ", attempts="
                                    + attempt,
                            "40001",
                            e);
                }
                resolve(appeared());
            }
        }
    }

    /** The pending changes written as plain inserts: their rows were missing when read. */
    private Map<TargetTable, Map<RowKey, Change>> appeared() {
        Map<TargetTable, Map<RowKey, Change>> inserts = new LinkedHashMap<>();
        pending.forEach(
                (table, rows) ->
                        rows.forEach(
                                (key, change) -> {
                                    if (change.kind() == Kind.INSERT) {
                                        inserts.computeIfAbsent(table, t -> new LinkedHashMap<>())
                                                .put(key, change);
                                    }
                                }));
        return inserts;
    }

    /**
     * Reads (and locks) the current versions of {@code changes}' rows, one query per table, and
     * lets the resolver decide each change: changes it does not apply are dropped; a delete of a
     * row that is not there is dropped (a row someone inserts meanwhile is newer than it); an image
     * for a missing row becomes a plain INSERT, one for a present row an upsert.
     *
     * @param changes pending changes by table, or a copy of some of them
     */
    private void resolve(Map<TargetTable, Map<RowKey, Change>> changes) throws SQLException {
        for (Map.Entry<TargetTable, Map<RowKey, Change>> entry : changes.entrySet()) {
            TargetTable table = entry.getKey();
            Map<RowKey, Change> rows = pending.get(table);
            List<RowKey> keys = new ArrayList<>(entry.getValue().keySet());
            Map<RowKey, RowVersion> current = versions.read(connection, table, keys);
            for (RowKey key : keys) {
                Change change = rows.get(key);
                RowVersion found = current.get(key);
                Resolution resolution = resolver.resolve(change.version(), found);
                if (resolution.outcome() != Resolution.Outcome.APPLY) {
                    rows.remove(key);
                    pendingRows--;
                    conflictsSkipped++;
                } else if (found == null && change.kind() == Kind.DELETE) {
                    rows.remove(key);
                    pendingRows--;
                } else if (change.kind() != Kind.DELETE) {
                    Kind kind = found == null ? Kind.INSERT : Kind.UPSERT;
                    if (kind != change.kind()) {
                        rows.put(key, new Change(kind, change.row(), change.version()));
                    }
                }
            }
        }
    }

    private long writeAll(boolean plainInserts) throws SQLException {
        long written = 0;
        for (Map.Entry<TargetTable, Map<RowKey, Change>> entry : pending.entrySet()) {
            if (entry.getValue().isEmpty()) {
                continue; // every change of the table was kept out by the resolver
            }
            // With a resolver every write is a statement: a staged merge could not tell a row
            // that appeared after the version read from one that was there.
            written +=
                    staging != null && resolver == null
                            ? staging.write(entry.getKey(), entry.getValue())
                            : coalesced.write(entry.getKey(), entry.getValue(), plainInserts);
        }
        return written + ordered.write(plainInserts);
    }

    /** Drops the pending rows and rolls back the open transaction; never throws. */
    public void rollback() {
        flushedRows = 0;
        pending.clear();
        ordered.clear();
        steps.clear();
        pendingRows = 0;
        try {
            connection.rollback();
        } catch (SQLException e) {
            broken = true; // a connection that cannot roll back is replaced
        }
    }

    private static boolean isDuplicateKey(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql
                    && ("23505".equals(sql.getSQLState()) || sql.getErrorCode() == 1062)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConnectionError(Exception e) {
        return e instanceof SQLException sql
                && sql.getSQLState() != null
                && sql.getSQLState().startsWith("08");
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // Closing a broken connection fails; there is nothing left to release.
            broken = true;
        }
    }

    @Override
    public String toString() {
        return "lane " + id + " at scn " + checkpoint;
    }
}
