package io.changegrid.policy.capture;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.util.HashMap;
import java.util.Map;

/**
 * The one place a fetcher asks what becomes of a source table's rows: whether the table is captured
 * at all (the relay's {@code capture.include}/{@code exclude} and its policies), and per table
 * schema version the {@link TableRoute} its rows take (predicate, transform, this relay's
 * partition). Every fetcher calls it, so every source gets policies, relay splitting and masking
 * the same way.
 *
 * <p>A route's output schema is registered in {@link #published()} before the route is returned, so
 * it is there before any frame names it. Without policies the published schemas are the source's.
 *
 * <p>Threading: the fetcher's thread only; {@link #published()} is safe to read from any thread.
 */
public final class CaptureRouter {

    private final TableFilter capture;
    private final CapturePlan plan;
    private final SchemaRegistry source;
    private final SchemaRegistry published;

    /** Per table id and schema version; a null value: nothing of that version is published. */
    private final Map<Long, TableRoute> routes = new HashMap<>();

    /**
     * A router for one fetcher.
     *
     * @param source the fetcher's registry of source schemas, which its DDL tracking updates
     */
    public CaptureRouter(TableFilter capture, CapturePlan plan, SchemaRegistry source) {
        this.capture = capture;
        this.plan = plan;
        this.source = source;
        this.published = plan.isEverything() ? source : new SchemaRegistry();
    }

    /**
     * Whether rows of {@code database.table} may be published: the capture filter takes the table
     * and some policy selects it. A fetcher need not even decode the rows of the others.
     */
    public boolean captures(String database, String table) {
        return capture.matches(database, table) && plan.selects(database, table);
    }

    /** Which tables the relay captures: fetchers also track the schemas of these only. */
    public TableFilter capture() {
        return capture;
    }

    /**
     * The route of a captured table schema version's rows, bound once per version; {@code null} if
     * this relay publishes none of them (no policy selects the table, or its table partition is
     * another relay's).
     *
     * @throws PolicyViolationException if the governing policy no longer fits the table
     */
    public TableRoute route(TableSchema schema) {
        long key = ((long) schema.tableId() << 32) | schema.version();
        if (routes.containsKey(key)) {
            return routes.get(key);
        }
        TableRoute route = plan.route(schema);
        publish(route);
        routes.put(key, route);
        return route;
    }

    /**
     * The route of a table the source just changed (its new schema version, already in the source
     * registry): as {@link #route}, and the change must keep the policy's protected columns.
     *
     * @throws PolicyViolationException naming the policy, table and column
     */
    public TableRoute routeChanged(TableSchema schema) {
        TableSchema previous =
                schema.version() > 1 ? source.schema(schema.tableId(), schema.version() - 1) : null;
        TableRoute route = plan.routeChanged(previous, schema);
        publish(route);
        return route;
    }

    /** The schema versions the published frames name. */
    public SchemaRegistry published() {
        return published;
    }

    private void publish(TableRoute route) {
        if (route != null && published != source) {
            published.restore(route.output());
        }
    }
}
