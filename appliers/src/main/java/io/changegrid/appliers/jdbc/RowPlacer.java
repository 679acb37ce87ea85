package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.ChangedColumns;
import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.batch.RowKey;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.policy.conflict.RowVersion;
import java.sql.SQLException;
import java.util.BitSet;
import java.util.List;

/**
 * Places a source transaction's row changes into lanes: the {@link LaneRouter} picks a row's lane,
 * a change a lane already committed (before a crash or retry) is left out, and a change whose row
 * still waits in another lane first has every lane commit (a barrier), so that no two lanes commit
 * one row's changes in the wrong order.
 *
 * <p>An insert and a delete are written as they come; an update that keeps the key writes only the
 * columns it changed (an upsert when it changed none); an update that changes the key is a delete
 * of the old key and an upsert of the new one, each in its own lane.
 *
 * <p>Threading: the consumer's dispatcher thread only, like the {@link JdbcApplier} that owns it.
 */
final class RowPlacer {

    /** Has every lane commit what it holds before an event is placed. */
    @FunctionalInterface
    interface Barrier {
        /**
         * Commits every lane.
         *
         * @param index the event about to be placed; every event before it has been
         */
        void commitBefore(int index) throws SQLException;
    }

    private enum Write {
        INSERT,
        UPSERT,
        /** Only the changed columns, by key; an upsert if the row is missing. */
        UPDATE,
        DELETE
    }

    private final LaneRouter router;
    private final Barrier barrier;

    private long transactionScn;
    private RowVersion transactionVersion;

    RowPlacer(LaneRouter router, Barrier barrier) {
        this.router = router;
        this.barrier = barrier;
    }

    /** The source transaction whose changes are placed next, and the version its rows carry. */
    void startTransaction(long scn, RowVersion version) {
        transactionScn = scn;
        transactionVersion = version;
    }

    /** Places an inserted row, event {@code index} of the current transaction. */
    void insert(List<Lane> lanes, TargetTable table, Object[] after, int index)
            throws SQLException {
        place(lanes, table, new RowKey(table.keyOf(after)), after, index, Write.INSERT, null);
    }

    /** Places an updated row, event {@code index} of the current transaction. */
    void update(List<Lane> lanes, TargetTable table, Object[] before, Object[] after, int index)
            throws SQLException {
        RowKey oldKey = new RowKey(table.keyOf(before));
        RowKey newKey = new RowKey(table.keyOf(after));
        if (oldKey.equals(newKey)) {
            BitSet changed = ChangedColumns.of(before, after);
            place(
                    lanes,
                    table,
                    newKey,
                    after,
                    index,
                    changed.isEmpty() ? Write.UPSERT : Write.UPDATE,
                    changed);
        } else {
            placeKeyChange(lanes, table, oldKey, before, newKey, after, index);
        }
    }

    /** Places a deleted row, event {@code index} of the current transaction. */
    void delete(List<Lane> lanes, TargetTable table, Object[] before, int index)
            throws SQLException {
        place(lanes, table, new RowKey(table.keyOf(before)), before, index, Write.DELETE, null);
    }

    private void place(
            List<Lane> lanes,
            TargetTable table,
            RowKey key,
            Object[] row,
            int index,
            Write write,
            BitSet changed)
            throws SQLException {
        int at = router.lane(table.schema(), key, row, transactionScn, index, lanes.size());
        if (lanes.get(at).applied(transactionScn, index)) {
            return; // this lane applied it before a crash or retry
        }
        if (heldElsewhere(lanes, table, key, at)) {
            barrier.commitBefore(index);
        }
        write(lanes.get(at), table, key, row, write, changed);
    }

    /**
     * An update that moves a row to another key: a delete of the old key and an upsert of the new
     * one, each in its own lane. Both are placed after at most one barrier, so a barrier never
     * commits half of one event.
     */
    private void placeKeyChange(
            List<Lane> lanes,
            TargetTable table,
            RowKey oldKey,
            Object[] before,
            RowKey newKey,
            Object[] after,
            int index)
            throws SQLException {
        int from = router.lane(table.schema(), oldKey, before, transactionScn, index, lanes.size());
        int to = router.lane(table.schema(), newKey, after, transactionScn, index, lanes.size());
        boolean deleteApplied = lanes.get(from).applied(transactionScn, index);
        boolean upsertApplied = lanes.get(to).applied(transactionScn, index);
        if ((!deleteApplied && heldElsewhere(lanes, table, oldKey, from))
                || (!upsertApplied && heldElsewhere(lanes, table, newKey, to))) {
            barrier.commitBefore(index);
        }
        if (!deleteApplied) {
            write(lanes.get(from), table, oldKey, before, Write.DELETE, null);
        }
        if (!upsertApplied) {
            write(lanes.get(to), table, newKey, after, Write.UPSERT, null);
        }
    }

    private void write(
            Lane lane, TargetTable table, RowKey key, Object[] row, Write write, BitSet changed) {
        switch (write) {
            case INSERT -> lane.insert(table, key, row, transactionVersion);
            case UPSERT -> lane.upsert(table, key, row, transactionVersion);
            case UPDATE -> lane.update(table, key, row, changed, transactionVersion);
            case DELETE -> lane.delete(table, key, transactionVersion);
        }
    }

    private static boolean heldElsewhere(List<Lane> lanes, TargetTable table, RowKey key, int at) {
        if (lanes.size() == 1) {
            return false;
        }
        for (Lane lane : lanes) {
            if (lane.id() != at && lane.holds(table, key)) {
                return true;
            }
        }
        return false;
    }
}
