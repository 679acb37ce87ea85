package io.changegrid.relay.stream;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.PolicyViolationException;
import io.changegrid.policy.capture.TableRoute;
import java.util.HashMap;
import java.util.Map;

/**
 * Which events of the stream one consumer wants: what its policies select, and its partition of
 * their partitioners — the same {@link CapturePlan} a relay applies before its buffer, applied to
 * the stored frames. Decided from frame headers (table id, partition hash) where the policy allows;
 * a row predicate or a column partitioner decodes the row, and only for tables the policy selects.
 * Control frames always pass; a schema change passes when its table is wanted.
 *
 * <p>A stored schema version that lacks a column the predicate or partitioner names (a version
 * older than the column) selects none of its rows, as SQL treats a comparison with an unknown
 * value.
 *
 * <p>Not thread-safe (it caches per-schema decisions); one per request.
 */
public final class Subscription {

    /** The decision for a schema version whose rows are not wanted. */
    private static final TableRoute NONE = null;

    private final CapturePlan plan;

    /** Per table id and schema version; a null route wants nothing. */
    private final Map<Long, TableRoute> routes = new HashMap<>();

    // Frames of one table come in runs: remembering the last decision spares boxing the map key.
    private long lastKey = -1;
    private TableRoute lastRoute;

    private ChangeEventDecoder decoder;

    /**
     * @param plan what the consumer wants; {@link CapturePlan#everything()} for all
     */
    public Subscription(CapturePlan plan) {
        this.plan = plan;
    }

    /** Whether everything passes, so frames can be copied without looking at them. */
    public boolean isEverything() {
        return plan.isEverything();
    }

    /** Whether the frame is for this subscriber. */
    public boolean wants(EventFrame frame, SchemaRegistry registry) {
        int op = frame.operationCode();
        if (op == Operation.HEARTBEAT.code() || op == Operation.END_OF_TRANSACTION.code()) {
            return true;
        }
        TableRoute route = route(frame.tableId(), frame.schemaVersion(), registry);
        if (route == NONE) {
            return false;
        }
        if (op == Operation.SCHEMA_CHANGE.code()) {
            return true;
        }
        if (!route.needsRowImages()) {
            return route.inPartition(frame);
        }
        if (decoder == null) {
            decoder = new ChangeEventDecoder(registry);
        }
        ChangeEvent event = decoder.decode(frame);
        return route.selects(event.operation(), event.before(), event.after())
                && route.inPartition(event.before(), event.after());
    }

    private TableRoute route(int tableId, int version, SchemaRegistry registry) {
        long key = ((long) tableId << 32) | version;
        if (key == lastKey) {
            return lastRoute;
        }
        TableRoute route = routes.get(key);
        if (route == null && !routes.containsKey(key)) {
            route = bind(registry.schema(tableId, version));
            routes.put(key, route);
        }
        lastKey = key;
        lastRoute = route;
        return route;
    }

    private TableRoute bind(TableSchema schema) {
        try {
            return plan.route(schema);
        } catch (PolicyViolationException e) {
            return NONE; // this version lacks a column the policy reads
        }
    }
}
