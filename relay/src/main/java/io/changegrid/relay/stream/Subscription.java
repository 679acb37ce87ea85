package io.changegrid.relay.stream;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameProjection;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.PolicyViolationException;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.relay.security.Grant;
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
 * <p>The principal's {@link Grant} narrows the plan: a table it may not stream is not wanted,
 * whatever the plan says, and a table it may see only some columns of has a {@link #projection}.
 * Both are decided per schema version, with the route, never per event.
 *
 * <p>Not thread-safe (it caches per-schema decisions); one per request.
 */
public final class Subscription {

    /** The decision for a schema version whose rows are not wanted. */
    private static final TableRoute NONE = null;

    private final CapturePlan plan;
    private final Grant grant;

    /** Per table id and schema version; a null route wants nothing. */
    private final Map<Long, TableRoute> routes = new HashMap<>();

    // Frames of one table come in runs: remembering the last decision spares boxing the map key.
    private long lastKey = -1;
    private TableRoute lastRoute;
    private FrameProjection lastProjection;

    /** Per table id and schema version of a wanted table: its projection, or null for none. */
    private final Map<Long, FrameProjection> projections = new HashMap<>();

    private ChangeEventDecoder decoder;

    /**
     * @param plan what the consumer wants; {@link CapturePlan#everything()} for all
     */
    public Subscription(CapturePlan plan) {
        this(plan, Grant.all("anonymous"));
    }

    /**
     * @param plan what the consumer wants
     * @param grant what its principal may have: the plan is narrowed to it
     */
    public Subscription(CapturePlan plan, Grant grant) {
        this.plan = plan;
        this.grant = grant;
    }

    /** Whether everything passes, so frames can be copied without looking at them. */
    public boolean isEverything() {
        return plan.isEverything() && grant.isEverything();
    }

    /**
     * The projection of a wanted row-change frame's table version, or null when it is sent whole. A
     * cached decision (the grant keeps them per schema version).
     */
    public FrameProjection projection(EventFrame frame, SchemaRegistry registry) {
        if (grant.columns().isEmpty()) {
            return null;
        }
        long key = ((long) frame.tableId() << 32) | frame.schemaVersion();
        if (key != lastKey) {
            route(frame.tableId(), frame.schemaVersion(), registry);
        }
        return lastProjection;
    }

    /** The schema the principal decodes a table version's frames with: projected, or as stored. */
    public TableSchema visibleSchema(int tableId, int version, SchemaRegistry registry) {
        TableSchema schema = registry.schema(tableId, version);
        return grant.projection(schema).map(FrameProjection::projected).orElse(schema);
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
            TableSchema schema = registry.schema(tableId, version);
            route = bind(schema);
            routes.put(key, route);
            if (route != NONE) {
                projections.put(key, grant.projection(schema).orElse(null));
            }
        }
        lastKey = key;
        lastRoute = route;
        lastProjection = projections.get(key);
        return route;
    }

    private TableRoute bind(TableSchema schema) {
        if (!grant.mayStreamVersion(schema)) {
            return NONE; // not granted: narrowed away, whatever the plan selects
        }
        try {
            return plan.route(schema);
        } catch (PolicyViolationException e) {
            return NONE; // this version lacks a column the policy reads
        }
    }
}
