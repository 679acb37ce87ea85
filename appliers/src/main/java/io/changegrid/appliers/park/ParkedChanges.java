package io.changegrid.appliers.park;

import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.batch.RowKey;
import io.changegrid.appliers.checkpoint.DeadLetterTable;
import io.changegrid.appliers.checkpoint.DeadLetterTable.Recorded;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.consumer.api.EventView;
import java.util.List;

/**
 * Records the row changes of parked tables in the dead-letter table instead of applying them. A
 * change is recorded by the lane its row would have been applied in, in that lane's next commit (so
 * the record commits exactly with the lane checkpoint that moves past the change, and a change the
 * lane's checkpoint covers is recorded no more than it would be applied); a key-changing update is
 * recorded as its two parts, each in its own key's lane, as it would be applied. Which lane holds a
 * record does not matter later: replay reads them in source order.
 *
 * <p>Threading: the dispatcher thread.
 */
public final class ParkedChanges {

    /** Part of an event that is recorded whole. */
    static final int WHOLE = 0;

    /** Part of a key-changing update: the delete of the old key. */
    static final int OLD_KEY = 1;

    /** Part of a key-changing update: the upsert of the new key. */
    static final int NEW_KEY = 2;

    private final DeadLetterTable deadLetters;
    private final ParkedTables parked;
    private final LaneRouter router;

    public ParkedChanges(DeadLetterTable deadLetters, ParkedTables parked, LaneRouter router) {
        this.deadLetters = deadLetters;
        this.parked = parked;
        this.router = router;
    }

    /**
     * Records row change {@code event} of a parked {@code table}, delivered at {@code index} of its
     * transaction, in the lanes that own its row (or rows), unless they applied it already.
     */
    public void record(EventView event, int index, TargetTable table, List<Lane> lanes) {
        long scn = event.scn();
        String name = table.schema().qualifiedName();
        String json = null;
        String schema = null;
        Object[] before = event.before();
        Object[] after = event.after();
        Object[][] parts;
        int[] partIds;
        switch (event.operation()) {
            case INSERT -> {
                parts = new Object[][] {after};
                partIds = new int[] {WHOLE};
            }
            case DELETE -> {
                parts = new Object[][] {before};
                partIds = new int[] {WHOLE};
            }
            case UPDATE -> {
                RowKey oldKey = new RowKey(table.keyOf(before));
                RowKey newKey = new RowKey(table.keyOf(after));
                if (oldKey.equals(newKey)) {
                    parts = new Object[][] {after};
                    partIds = new int[] {WHOLE};
                } else {
                    parts = new Object[][] {before, after};
                    partIds = new int[] {OLD_KEY, NEW_KEY};
                }
            }
            default ->
                    throw new IllegalArgumentException(
                            "not a row change: operation="
                                    + event.operation()
                                    + ", table="
                                    + name
                                    + ", scn="
                                    + scn);
        }
        for (int i = 0; i < parts.length; i++) {
            RowKey key = new RowKey(table.keyOf(parts[i]));
            Lane lane =
                    lanes.get(router.lane(table.schema(), key, parts[i], scn, index, lanes.size()));
            if (lane.applied(scn, index)) {
                continue; // this lane recorded it before a crash or retry
            }
            if (json == null) {
                json = EventJson.write(event.toChangeEvent());
                schema = EventJson.write(table.schema());
            }
            Recorded change =
                    new Recorded(
                            name, scn, index, partIds[i], event.operation().name(), json, schema);
            lane.alsoCommit(connection -> deadLetters.record(connection, change));
            parked.recorded(1);
        }
    }
}
