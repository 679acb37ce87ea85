package io.changegrid.appliers.park;

import io.changegrid.appliers.batch.ChangedColumns;
import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.batch.RowKey;
import io.changegrid.appliers.checkpoint.DeadLetterTable;
import io.changegrid.appliers.checkpoint.DeadLetterTable.Recorded;
import io.changegrid.appliers.schema.TableCatalog;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.events.ChangeEvent;
import io.changegrid.policy.conflict.RowVersion;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.BitSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resumes a parked table: replays its recorded changes in source order, {@value #CHUNK} at a time,
 * each chunk applied and deleted from the dead-letter table in one transaction of a lane (whose
 * checkpoint row it rewrites unchanged, so the epoch fences it like any commit), and unparks the
 * table in the transaction that deletes the last one. A crash between chunks leaves exactly the
 * unreplayed changes recorded; nothing is applied twice or lost.
 *
 * <p>Runs between consumer batches on the dispatcher thread, when every lane has committed and no
 * change of the table can be recorded meanwhile.
 */
public final class TableResume {

    private static final Logger LOG = LoggerFactory.getLogger(TableResume.class);

    /** Recorded changes replayed per transaction. */
    static final int CHUNK = 500;

    private final DeadLetterTable deadLetters;
    private final ParkedTables parked;
    private final TableCatalog catalog;

    public TableResume(DeadLetterTable deadLetters, ParkedTables parked, TableCatalog catalog) {
        this.deadLetters = deadLetters;
        this.parked = parked;
        this.catalog = catalog;
    }

    /**
     * Replays {@code table}'s recorded changes through {@code lane} and unparks it.
     *
     * @param control an autocommit connection for reads
     * @param lane an idle lane, nothing pending
     * @param epoch the owner's epoch
     * @throws SQLException from the target; the chunk being replayed is rolled back and stays
     *     recorded, with the chunks before it replayed
     * @throws RuntimeException a value the target cannot take ({@link
     *     io.changegrid.appliers.batch.RowRefusedException}), the chunk likewise rolled back
     */
    public void resume(Connection control, Lane lane, String table, long epoch)
            throws SQLException {
        long replayed = 0;
        while (true) {
            List<Recorded> chunk = deadLetters.oldest(control, table, CHUNK);
            try {
                for (Recorded change : chunk) {
                    replay(control, lane, change);
                }
                boolean last = chunk.size() < CHUNK;
                if (!chunk.isEmpty()) {
                    Recorded through = chunk.get(chunk.size() - 1);
                    lane.alsoCommit(connection -> deadLetters.deleteThrough(connection, through));
                }
                if (last) {
                    lane.alsoCommit(connection -> deadLetters.unpark(connection, table));
                }
                lane.commit(lane.checkpoint(), epoch);
                replayed += chunk.size();
                parked.replayed(chunk.size());
                if (last) {
                    parked.unpark(table);
                    LOG.info("table resumed: table={}, replayed={}", table, replayed);
                    return;
                }
            } catch (SQLException | RuntimeException e) {
                lane.rollback();
                throw e;
            }
        }
    }

    private void replay(Connection control, Lane lane, Recorded recorded) throws SQLException {
        ChangeEvent event = EventJson.read(recorded.event(), recorded.schema());
        TargetTable table = catalog.table(control, event.schema());
        RowVersion version =
                new RowVersion(event.sourceId(), event.scn(), event.commitTimeMicros());
        Object[] before = event.before();
        Object[] after = event.after();
        switch (recorded.part()) {
            case ParkedChanges.OLD_KEY -> lane.delete(table, key(table, before), version);
            case ParkedChanges.NEW_KEY -> lane.upsert(table, key(table, after), after, version);
            default -> {
                switch (event.operation()) {
                    case INSERT -> lane.insert(table, key(table, after), after, version);
                    case DELETE -> lane.delete(table, key(table, before), version);
                    case UPDATE -> {
                        BitSet changed = ChangedColumns.of(before, after);
                        if (changed.isEmpty()) {
                            lane.upsert(table, key(table, after), after, version);
                        } else {
                            lane.update(table, key(table, after), after, changed, version);
                        }
                    }
                    default ->
                            throw new IllegalStateException(
                                    "not a row change in the dead-letter table: table="
                                            + recorded.table()
                                            + ", scn="
                                            + recorded.scn()
                                            + ", index="
                                            + recorded.index()
                                            + ", operation="
                                            + event.operation());
                }
            }
        }
    }

    private static RowKey key(TargetTable table, Object[] row) {
        return new RowKey(table.keyOf(row));
    }
}
