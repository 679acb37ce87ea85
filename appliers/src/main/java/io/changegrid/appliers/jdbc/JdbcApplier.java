package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.batch.RowRefusedException;
import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.checkpoint.DeadLetterTable;
import io.changegrid.appliers.checkpoint.LaneCheckpoint;
import io.changegrid.appliers.checkpoint.SnapshotMark;
import io.changegrid.appliers.conflict.VersionReader;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.dialect.PostgresDialect;
import io.changegrid.appliers.park.Parking;
import io.changegrid.appliers.schema.TableCatalog;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.CheckpointingCallback;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.group.ApplierStatus;
import io.changegrid.consumer.group.ApplyingCallback;
import io.changegrid.consumer.group.metrics.MeteredCallback;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.conflict.RowVersion;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replicates a source's tables into PostgreSQL or MariaDB/MySQL, exactly once: a {@link
 * ConsumerCallback} for a consumer whose {@link CheckpointStore} is {@link #checkpointStore()}.
 *
 * <p><b>What it writes.</b> Inserts and updates are blind upserts of the after image by primary
 * key, deletes are deletes by key (a delete of a missing row changes nothing), an update that
 * changes the key is a delete of the old key and an upsert of the new one. No row is read. Changes
 * are coalesced per key between commits.
 *
 * <p><b>Transaction batching.</b> A consumer batch (up to {@code batch.maxTransactions} source
 * transactions within {@code batch.maxWait}) is one target transaction per lane; when more than
 * {@code maxRows} rows are pending at a transaction end, the lanes commit there already.
 *
 * <p><b>Exactly once.</b> Each lane writes its checkpoint row in the same target transaction as its
 * rows, conditional on the ownership epoch. Transactions at or below a lane's checkpoint are
 * skipped for that lane, and so are the events of a transaction a barrier committed part-way up to
 * the index it reached ({@link LaneCheckpoint}), so whatever the consumer delivers again (after
 * RETRY, a crash or a restart from an older file checkpoint) is applied once. {@link #onEndBatch}
 * succeeds only when every lane committed (a {@link CommitRound}); the consumer resumes after the
 * lowest lane.
 *
 * <p><b>Transactions in parts</b> (docs/consumer.md, "Transactions in parts"): the consumer hands
 * over a source transaction larger than its buffer a part at a time, in a batch of its own. Once
 * {@code maxRows} rows are pending inside it, the lanes write them into their open target
 * transactions without committing ({@link Lane#flush}), so the applier holds {@code maxRows} rows,
 * not the transaction; everything commits with the checkpoint rows at its end ({@link
 * #onEndBatch}), once. Only where no barrier can come (one lane, or the {@code key} router): a
 * barrier would commit a lane's flushed rows part-way, and another lane could wait on their locks.
 *
 * <p><b>Snapshots</b> (docs/bootstrap.md) need nothing else of the writes: a snapshot row is an
 * INSERT, written as an upsert; a live UPDATE of a row not copied yet upserts its whole after image
 * (the relay requires full row images); a live DELETE of a row not held deletes nothing. A chunk
 * never moves a lane's SCN; its snapshot cursor ({@link SnapshotMark}) is written into every lane's
 * checkpoint row in the transaction that commits its rows, and a chunk at or below a lane's SCN is
 * skipped there like a transaction. Where the copy of a table begins, the lanes commit what they
 * hold and the target table is emptied in lane 0's next checkpointed transaction ({@link
 * TableReseed}).
 *
 * <p><b>Schema changes</b> are a barrier: every lane commits, then the target table is altered (see
 * {@link TableCatalog}) and the checkpoint moved past the change, in one transaction where the
 * target has transactional DDL.
 *
 * <p><b>Parking</b> ({@code apply.refusedRows=park}, {@link Parking}): a permanent error that names
 * its table parks that table (its row in the target's table of parked tables committed before
 * anything else) and the batch is retried: from then on the table's changes are recorded in the
 * dead-letter table by the lanes instead of applied, the other tables flowing. While a table is
 * parked, the start of every batch reads the table of parked tables for an operator's resume
 * request (one small query), and replays the recorded changes of a table asked for through lane 0.
 *
 * <p>Its parts: a {@link RowPlacer} places each row change into a lane, a {@link CommitRound}
 * commits the lanes, a {@link SchemaChangeCommit} alters the target; this class keeps the
 * connections and the transaction being delivered, and routes errors (retry, park or fail).
 *
 * <p>Threading: every callback method on the consumer's dispatcher thread; lanes commit on the
 * committer's threads while the dispatcher waits. The counters may be read from any thread.
 */
public final class JdbcApplier
        implements CheckpointingCallback, MeteredCallback, ApplyingCallback, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcApplier.class);

    private final ApplierOptions options;
    private final Dialect dialect;
    private final TargetConnections connections;
    private final CheckpointTable checkpoints;
    private final TableCatalog catalog;
    private final LaneRouter router;
    private final CommitRound commitRound;
    private final RowPlacer placer;
    private final SchemaChangeCommit schemaChanges;
    private final VersionReader versions;
    private final Parking parking;
    private final TargetErrors errors;
    private final TableReseed reseed;
    // Replaced whole (never changed in place) by connect(), so that a monitoring thread reading
    // the counters or laneCheckpoints() sees either the old lanes or the new ones.
    private volatile List<Lane> lanes = List.of();
    private Connection control;
    private boolean resync;

    private long transactionScn;
    private boolean skipTransaction;

    /** Whether the current transaction comes in parts and its rows are flushed as they come. */
    private boolean flushing;

    /**
     * Events delivered so far in the current transaction: an event's position here, not the relay's
     * frame index, places it and is what lane checkpoints record. Replicas a consumer may fail over
     * to deliver the same events in the same order, but number a transaction's events among what
     * each of them captures (other tables, another split), so only this position means the same
     * event after a restart on another relay.
     */
    private int delivered;

    private long lastCompleteScn = -1;

    /** The snapshot mark the lanes' next commits write; the dispatcher thread's. */
    private volatile SnapshotMark mark = SnapshotMark.NONE;

    private volatile long transactionsApplied;
    private volatile long transactionsSkipped;
    private volatile long barriers;
    private volatile String lastError;

    private JdbcApplier(ApplierOptions options) {
        this.options = options;
        this.dialect = Dialect.of(options.url());
        this.connections = new TargetConnections(options, dialect);
        this.checkpoints =
                new CheckpointTable(
                        dialect,
                        options.checkpointNamespace(),
                        options.checkpointTable(),
                        options.consumerGroup(),
                        options.partition());
        this.catalog =
                new TableCatalog(
                        dialect,
                        options.targetNamespace(),
                        options.createTables(),
                        options.schemaChanges(),
                        options.conflicts() != null,
                        options.writeOrder());
        this.router = options.router();
        this.commitRound = new CommitRound(options.lanes(), options.epoch());
        this.placer = new RowPlacer(router, this::barrier);
        this.schemaChanges = new SchemaChangeCommit(dialect, catalog, checkpoints, options.epoch());
        this.versions = new VersionReader(dialect);
        this.parking =
                new Parking(
                        options.parkRefusedTables(),
                        dialect,
                        new DeadLetterTable(
                                dialect,
                                options.checkpointNamespace(),
                                options.checkpointTable(),
                                options.consumerGroup(),
                                options.partition()),
                        router,
                        catalog);
        this.errors = new TargetErrors(dialect, parking);
        this.reseed = new TableReseed(catalog);
    }

    /**
     * Connects to the target, creates the checkpoint table if missing, makes sure each lane has its
     * checkpoint row and stamps the options' epoch on them (fencing every older owner).
     *
     * @throws SQLException if the target cannot be reached or prepared
     * @throws IllegalStateException if the lane count changed while lanes disagree
     * @throws io.changegrid.appliers.checkpoint.FencedException if a lane holds a newer epoch
     */
    public static JdbcApplier open(ApplierOptions options) throws SQLException {
        JdbcApplier applier = new JdbcApplier(options);
        try {
            applier.connect();
        } catch (SQLException | RuntimeException e) {
            applier.close();
            throw e;
        }
        LOG.info(
                "applier ready: target={}, options={}, lanes={}",
                applier.dialect.name(),
                options,
                applier.lanes);
        return applier;
    }

    private void connect() throws SQLException {
        closeConnections();
        control = connections.open();
        checkpoints.create(control);
        checkpoints.prepareLanes(control, options.lanes());
        parking.load(control);
        // Stamp this owner's epoch on the lanes before reading them: from here on an older owner's
        // commit is refused, so the SCNs read next cannot move under this applier.
        LaneCheckpoint[] claimed =
                checkpoints.claim(control, options.lanes(), options.epoch().getAsLong());
        List<Lane> opened = new ArrayList<>();
        try {
            for (int lane = 0; lane < claimed.length; lane++) {
                opened.add(
                        new Lane(
                                lane,
                                connections.open(),
                                checkpoints,
                                claimed[lane],
                                dialect.optimisticInserts(),
                                options.conflicts(),
                                versions,
                                options.mode() == ApplyMode.STAGING
                                        ? (PostgresDialect) dialect
                                        : null));
            }
        } catch (SQLException | RuntimeException e) {
            for (Lane lane : opened) {
                lane.close();
            }
            throw e;
        }
        lanes = List.copyOf(opened);
        mark = checkpoints.resumeMark(control);
        for (Lane lane : lanes) {
            lane.markSnapshot(mark);
        }
        resync = false;
    }

    /**
     * A checkpoint store reading and advancing this applier's checkpoint rows in the target: give
     * it to the consumer so it resumes from the target's own checkpoint (a consumer group member
     * does so by itself). Its saves write nothing the lanes' commits already wrote.
     */
    @Override
    public CheckpointStore checkpointStore() {
        return new TargetCheckpointStore(
                connections,
                checkpoints,
                options.lanes(),
                options.epoch(),
                () -> CommitRound.lowestCheckpointScn(lanes),
                () -> mark,
                this::markSnapshot);
    }

    /**
     * Refuses, before anything is applied, tables with a column the target cannot hold: e.g. the
     * subscribed tables a relay already knows ({@link io.changegrid.appliers.schema.RelaySchemas}).
     * Tables not checked here are checked at their first row or schema change.
     *
     * @throws io.changegrid.appliers.typemap.UnmappableTypeException naming every such column
     */
    public void checkTypes(Collection<TableSchema> tables) {
        catalog.checkTypes(tables);
    }

    /** Rows written to the target (upserts and deletes after coalescing). */
    public long rowsApplied() {
        return commitRound.rowsApplied();
    }

    /** Source transactions applied (at least partly not skipped). */
    public long transactionsApplied() {
        return transactionsApplied;
    }

    /** Source transactions skipped because the target already had them. */
    public long transactionsSkipped() {
        return transactionsSkipped;
    }

    /** Times every lane committed early to keep one key's changes in order. */
    public long barriers() {
        return barriers;
    }

    /** Commits redone with upserts because a plain insert met an existing row. */
    public long insertFallbacks() {
        return lanes.stream().mapToLong(Lane::insertFallbacks).sum();
    }

    /** Changes the conflict resolver skipped or rejected. */
    public long conflictsSkipped() {
        return lanes.stream().mapToLong(Lane::conflictsSkipped).sum();
    }

    /** The source tables parked now ({@code apply.refusedRows=park}); safe from any thread. */
    public Set<String> parkedTables() {
        return parking.tables().tables();
    }

    /** Times a table was parked since the applier started. */
    public long tablesParked() {
        return parking.tables().parks();
    }

    /** Changes of parked tables recorded in the dead-letter table since the applier started. */
    public long changesParked() {
        return parking.tables().recorded();
    }

    /** Recorded changes replayed into resumed tables since the applier started. */
    public long changesReplayed() {
        return parking.tables().replayed();
    }

    /** Commit rounds (every lane committing once). */
    public long commits() {
        return commitRound.commits();
    }

    /**
     * The applier's counters as {@code changegrid.applier.*} meters of its partition, read when
     * scraped (a group member's {@code GET /metrics}).
     */
    @Override
    public List<Meter> registerMeters(MeterRegistry registry, Tags tags) {
        return ApplierMeters.register(this, registry, tags);
    }

    /**
     * Where it writes (the JDBC URL without its parameters, which may hold credentials), its lanes,
     * counters and last target error, for the member's status endpoint.
     */
    @Override
    public ApplierStatus applierStatus() {
        String url = options.url();
        int parameters = url.indexOf('?');
        return new ApplierStatus(
                parameters < 0 ? url : url.substring(0, parameters),
                options.lanes(),
                rowsApplied(),
                transactionsApplied(),
                commits(),
                lastError);
    }

    /**
     * Each lane's checkpoint SCN as this applier last wrote or read it; safe from any thread, and
     * empty while the applier reconnects.
     */
    public long[] laneCheckpoints() {
        return lanes.stream().mapToLong(lane -> lane.checkpoint().scn()).toArray();
    }

    @Override
    public CallbackResult onStartBatch() {
        if (resync) {
            try {
                connect();
            } catch (SQLException e) {
                return failed("reconnecting to the target", e);
            }
        }
        try {
            parking.resumeRequested(control, lanes.get(0), options.epoch().getAsLong());
            return CallbackResult.SUCCESS;
        } catch (SQLException e) {
            return failed("resuming parked tables", e);
        }
    }

    @Override
    public CallbackResult onStartTransaction(TransactionInfo transaction) {
        transactionScn = transaction.scn();
        placer.startTransaction(
                transaction.scn(),
                new RowVersion(
                        transaction.sourceId(), transaction.scn(), transaction.commitTimeMicros()));
        skipTransaction = transaction.scn() <= CommitRound.lowestCheckpointScn(lanes);
        delivered = 0;
        // A transaction in parts does not know its size at its start (docs/consumer.md).
        flushing =
                transaction.eventCount() < 0
                        && !transaction.snapshotChunk()
                        && (options.lanes() == 1 || router instanceof LaneRouter.ByKey);
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        int index = delivered++;
        if (skipTransaction) {
            return CallbackResult.SUCCESS;
        }
        try {
            if (parking.isParked(event)) {
                parking.record(event, index, catalog.table(control, event.schema()), lanes);
                return CallbackResult.SUCCESS;
            }
            switch (event.operation()) {
                case INSERT -> {
                    TargetTable table = catalog.table(control, event.schema());
                    placer.insert(lanes, table, event.after(), index);
                }
                case UPDATE -> {
                    TargetTable table = catalog.table(control, event.schema());
                    placer.update(lanes, table, event.before(), event.after(), index);
                }
                case DELETE -> {
                    TargetTable table = catalog.table(control, event.schema());
                    placer.delete(lanes, table, event.before(), index);
                }
                case SCHEMA_CHANGE -> applySchemaChange(event, index);
                default -> {
                    // Heartbeats and transaction ends never reach onEvent.
                }
            }
            if (flushing && CommitRound.pendingRows(lanes) >= options.maxRows()) {
                for (Lane lane : lanes) {
                    lane.flush();
                }
            }
            return CallbackResult.SUCCESS;
        } catch (SQLException | RowRefusedException e) {
            return failed(
                    "applying scn=" + event.scn() + ", event=" + index + ", index=" + event.index(),
                    e);
        }
    }

    /**
     * A row's earlier change waits in another lane than its next one: every lane commits what it
     * holds first, so the two lanes cannot commit the row's changes in the wrong order. The commit
     * may cut the current source transaction: each lane's checkpoint then records the event index
     * it got to ({@link LaneCheckpoint}), so that a lane which commits nothing more of this
     * transaction before a crash skips exactly the events it did commit when the transaction comes
     * again, and never replays them over a later change another lane committed.
     *
     * @param index the event about to be placed; every event before it has been
     */
    private void barrier(int index) throws SQLException {
        barriers = barriers + 1;
        commitAll(LaneCheckpoint.within(lastCompleteScn, transactionScn, index - 1));
    }

    private void applySchemaChange(EventView event, int index) throws SQLException {
        if (event.schema() == null) {
            return; // a change without a table: nothing in the target follows it
        }
        // Every lane commits first (no lane keeps a row of the old shape); a schema change is its
        // own transaction, so this cuts none.
        commitAll(LaneCheckpoint.within(lastCompleteScn, transactionScn, index - 1));
        schemaChanges.apply(control, lanes, event);
        skipTransaction = true; // a schema change is its own transaction
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        if (skipTransaction) {
            transactionsSkipped = transactionsSkipped + 1;
        } else {
            transactionsApplied = transactionsApplied + 1;
        }
        if (transaction.snapshotChunk()) {
            // A chunk moves the cursor its rows commit with, never the SCN: the next live
            // transaction may sit exactly at the chunk's high watermark.
            markSnapshot(
                    mark.movedTo(
                            transaction.completesSnapshot() ? null : transaction.snapshotCursor()));
        } else {
            lastCompleteScn = transaction.scn();
        }
        if (CommitRound.pendingRows(lanes) >= options.maxRows()) {
            try {
                commitAll(LaneCheckpoint.after(lastCompleteScn));
            } catch (SQLException | RowRefusedException e) {
                return failed("committing at scn=" + transaction.scn(), e);
            }
        }
        return CallbackResult.SUCCESS;
    }

    /** Empties the table's target table, after committing what came before its copy. */
    @Override
    public CallbackResult onSnapshotStart(String database, String table) {
        try {
            commitAll(LaneCheckpoint.after(lastCompleteScn));
            if (reseed.empty(control, lanes.get(0), database, table)) {
                commitAll(LaneCheckpoint.after(lastCompleteScn));
            }
            return CallbackResult.SUCCESS;
        } catch (SQLException | RowRefusedException e) {
            return failed("emptying the target table of " + database + "." + table, e);
        }
    }

    @Override
    public CallbackResult onEndBatch(long checkpointScn) {
        return onEndBatch(new Checkpoint(checkpointScn, mark.cursor()));
    }

    /** Commits every lane at the checkpoint's SCN, with its snapshot cursor. */
    @Override
    public CallbackResult onEndBatch(Checkpoint checkpoint) {
        long checkpointScn = checkpoint.scn();
        markSnapshot(mark.movedTo(checkpoint.snapshot()));
        try {
            commitAll(LaneCheckpoint.after(checkpointScn));
            lastCompleteScn = checkpointScn;
            return CallbackResult.SUCCESS;
        } catch (SQLException | RowRefusedException e) {
            return failed("committing the batch at scn=" + checkpointScn, e);
        }
    }

    @Override
    public void onRollback(long checkpointScn) {
        for (Lane lane : lanes) {
            lane.rollback();
        }
        // Lanes may have committed before another failed: re-read every checkpoint.
        resync = true;
        lastCompleteScn = checkpointScn;
    }

    /** The mark the lanes' next commits write. */
    private void markSnapshot(SnapshotMark next) {
        mark = next;
        for (Lane lane : lanes) {
            lane.markSnapshot(next);
        }
    }

    private void commitAll(LaneCheckpoint to) throws SQLException {
        commitRound.commitAll(lanes, to);
    }

    /** What {@link TargetErrors} says; after RETRY the lanes are re-read before the next batch. */
    private CallbackResult failed(String what, Exception e) {
        lastError = what + ": " + e;
        CallbackResult result = errors.failed(control, what, e);
        resync = true;
        return result;
    }

    private void closeConnections() {
        List<Lane> closing = lanes;
        lanes = List.of();
        for (Lane lane : closing) {
            lane.close();
        }
        if (control != null) {
            try {
                control.close();
            } catch (SQLException e) {
                LOG.debug("closing a broken control connection failed", e);
            }
            control = null;
        }
    }

    @Override
    public void close() {
        closeConnections();
        commitRound.close();
    }

    @Override
    public String toString() {
        return "JdbcApplier[" + dialect.name() + ", " + options.url() + ", lanes=" + lanes + "]";
    }
}
