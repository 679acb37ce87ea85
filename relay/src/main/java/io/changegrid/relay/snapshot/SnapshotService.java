package io.changegrid.relay.snapshot;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.schema.UnknownSchemaException;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.policy.capture.TableRoute;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * What a relay knows to serve snapshots (docs/bootstrap.md): which source tables a subscription's
 * snapshot copies, in which order, the route each takes, and the {@link ChunkSource} that reads
 * them. One per relay.
 *
 * <p>Threading: thread-safe; called from HTTP pool threads.
 */
public final class SnapshotService implements AutoCloseable {

    private final int sourceId;
    private final SchemaRegistry source;
    private final SchemaRegistry published;
    private final TableFilter capture;
    private final CapturePlan plan;
    private final ChunkSource chunks;
    private final Semaphore requests;

    /**
     * @param source the fetcher's source schemas (its latest versions are what chunks are read
     *     with)
     * @param published the schemas the relay's frames name
     * @param capture the relay's {@code capture.*} tables
     * @param plan the relay's policies and partition
     */
    public SnapshotService(
            int sourceId,
            SchemaRegistry source,
            SchemaRegistry published,
            TableFilter capture,
            CapturePlan plan,
            ChunkSource chunks) {
        this.sourceId = sourceId;
        this.source = source;
        this.published = published;
        this.capture = capture;
        this.plan = plan;
        this.chunks = chunks;
        this.requests = new Semaphore(chunks.settings().maxRequests());
    }

    /**
     * Takes one of the {@code snapshot.maxRequests} places of requests served at once; false when
     * none is free. A request that took one must {@link #endRequest end}.
     */
    public boolean tryBeginRequest() {
        return requests.tryAcquire();
    }

    /** Gives back a place taken by {@link #tryBeginRequest}. */
    public void endRequest() {
        requests.release();
    }

    public int sourceId() {
        return sourceId;
    }

    public ChunkSource chunks() {
        return chunks;
    }

    public SchemaRegistry published() {
        return published;
    }

    /**
     * The source tables a snapshot of {@code subscription} copies, by qualified name: those this
     * relay captures and publishes and the subscription selects, at their latest schema version.
     */
    public List<TableSchema> tables(CapturePlan subscription) {
        return source.latestVersions().stream()
                .filter(t -> source.latest(t.database(), t.table()).isPresent())
                .filter(t -> capture.matches(t.database(), t.table()))
                .filter(t -> plan.selects(t.database(), t.table()))
                .filter(t -> subscription.selects(t.database(), t.table()))
                .filter(t -> plan.route(t) != null)
                .sorted(Comparator.comparing(TableSchema::qualifiedName))
                .toList();
    }

    /** The table of {@code tables} named so, if it is one. */
    public static Optional<TableSchema> find(
            List<TableSchema> tables, String database, String table) {
        return tables.stream()
                .filter(t -> t.database().equals(database) && t.table().equals(table))
                .findFirst();
    }

    /** The table after {@code current} in {@code tables}, if any. */
    public static Optional<TableSchema> next(List<TableSchema> tables, TableSchema current) {
        int at = tables.indexOf(current);
        return at >= 0 && at + 1 < tables.size()
                ? Optional.of(tables.get(at + 1))
                : Optional.empty();
    }

    /**
     * The route of a table's rows, its output schema registered in the published schemas so that
     * consumers can decode the chunk's frames even before the fetcher routed a live row of it.
     */
    public TableRoute route(TableSchema table) {
        TableRoute route = plan.route(table);
        if (route != null && published != source) {
            try {
                published.schema(route.output().tableId(), route.output().version());
            } catch (UnknownSchemaException e) {
                published.restore(route.output());
            }
        }
        return route;
    }

    @Override
    public void close() {
        chunks.close();
    }
}
