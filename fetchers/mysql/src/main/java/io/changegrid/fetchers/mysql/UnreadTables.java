package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Which binlog table ids' rows the binlog client's thread leaves unread when the events are handled
 * on another thread ({@link FetchPipeline}): those whose latest table map, read on the client's
 * thread just before, names a table the capture filter or the policies' selection leave out. Only
 * the names decide, so the answer never waits for the other thread; the rows of a captured table
 * whose route publishes nothing (another relay's table partition) are copied and then dropped
 * there.
 *
 * <p>Not thread-safe: the binlog client's thread asks, and reads the table-map cache it fills.
 */
final class UnreadTables implements LongPredicate {

    /** The decision for one table id under its latest table map's names. */
    private record Decision(String database, String table, boolean unread) {}

    private static final int MAX_DECISIONS = 10_000;

    private final Map<Long, TableMapEventData> tableMaps;
    private final TableFilter capture;
    private final CapturePlan plan;
    private final Map<Long, Decision> decisions = new HashMap<>();

    UnreadTables(Map<Long, TableMapEventData> tableMaps, TableFilter capture, CapturePlan plan) {
        this.tableMaps = tableMaps;
        this.capture = capture;
        this.plan = plan;
    }

    @Override
    public boolean test(long binlogTableId) {
        TableMapEventData map = tableMaps.get(binlogTableId);
        if (map == null) {
            return false; // the handling thread reports rows without a table map
        }
        Decision decision = decisions.get(binlogTableId);
        if (decision == null
                || !decision.table().equals(map.getTable())
                || !decision.database().equals(map.getDatabase())) {
            boolean captured =
                    capture.matches(map.getDatabase(), map.getTable())
                            && plan.selects(map.getDatabase(), map.getTable());
            decision = new Decision(map.getDatabase(), map.getTable(), !captured);
            if (decisions.size() >= MAX_DECISIONS) {
                decisions.clear();
            }
            decisions.put(binlogTableId, decision);
        }
        return decision.unread();
    }
}
