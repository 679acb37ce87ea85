package io.changegrid.fetchers.postgresql;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns pgoutput messages into whole transactions of frames on the relay's timeline.
 *
 * <ul>
 *   <li>A transaction's SCN is its commit LSN (Begin's final LSN): unique, increasing, the same for
 *       every relay reading the server with its own slot. Protocol 1 sends a transaction only once
 *       committed, so it is handed to the sink at its Commit, whole.
 *   <li>A Relation message whose columns differ from the table's latest schema is a schema change:
 *       a new version on the timeline. PostgreSQL logs no DDL for logical decoding, so the change
 *       is seen with the first row after it, inside a transaction; it is published as its own
 *       transaction at SCN {@code commitLsn - 1}, right before the rows (appliers expect a schema
 *       change alone in its transaction).
 *   <li>Hence the resume position {@code end} (the LSN after the last commit) has SCN {@code end -
 *       1} (a schema change may come at it) and heartbeats sit at {@code end - 2}: above every SCN
 *       published (a commit record is longer than 2 bytes), below any still to come.
 *   <li>Rows take their table's {@link TableRoute} through the {@link TransactionWriter}, as the
 *       binlog fetcher's do: predicate, transform, partition.
 * </ul>
 *
 * <p>Threading: the fetcher's thread only, except the getters named so.
 */
final class PgTransactionAssembler implements PgOutputDecoder.Handler {

    /** A relation's binding: its schema version, how each column is read, and its route. */
    private record Binding(TableSchema schema, PgValueKind[] kinds, TableRoute route) {}

    private static final Binding UNCAPTURED = new Binding(null, null, null);

    private final SchemaRegistry registry;
    private final CaptureRouter router;
    private final PgCatalog catalog;
    private final PgSchemaHistory history;
    private final TransactionWriter writer;
    private final TransactionWriter schemaChanges;
    private final TransactionSink sink;
    private final int maxTransactionBytes;
    private final long heartbeatAfterNanos;
    private final Map<Integer, Binding> relations = new HashMap<>();
    private volatile long committedEnd;
    private long lastPublishNanos = System.nanoTime();
    private boolean open;
    private long commitLsn;
    private String xid;

    PgTransactionAssembler(
            PostgresFetcherConfig config,
            SchemaRegistry registry,
            PgCatalog catalog,
            PgSchemaHistory history,
            TransactionSink sink,
            Lsn start) {
        this.registry = registry;
        this.history = history;
        this.router = new CaptureRouter(config.capture(), config.plan(), registry);
        this.catalog = catalog;
        this.writer = new TransactionWriter(config.sourceId(), 64 * 1024);
        this.schemaChanges = new TransactionWriter(config.sourceId(), 4 * 1024);
        this.sink = sink;
        this.maxTransactionBytes = config.maxTransactionBytes();
        this.heartbeatAfterNanos = config.heartbeatInterval().toNanos();
        this.committedEnd = start.value();
    }

    /** The schema versions the published frames name; any thread. */
    SchemaRegistry published() {
        return router.published();
    }

    /** The LSN after the last transaction handed over: where to resume; any thread. */
    Lsn committed() {
        return new Lsn(committedEnd);
    }

    /** The SCN of {@link #committed()}: no transaction still to come is below it. */
    long committedScn() {
        return committedEnd - 1;
    }

    /** Drops a transaction left open by a broken connection; the next connection sends it again. */
    void abandonOpenTransaction() {
        open = false;
        writer.abandon();
        schemaChanges.abandon();
        relations.clear(); // a new session sends every Relation again
    }

    /**
     * Called when the stream has nothing: an idle source still advances the timeline. The server
     * has sent everything that commits before {@code serverLsn} (a keepalive's position, always a
     * WAL record boundary), so with no transaction open the resume point moves there: the next
     * heartbeat carries it, the relay makes it durable, and the slot is confirmed up to it, so a
     * slot whose tables see no writes does not keep the server's WAL. A transaction still running
     * on the server commits later, above it, and is sent whole.
     */
    void idle(long serverLsn) throws InterruptedException {
        if (open) {
            return;
        }
        if (serverLsn > committedEnd) {
            committedEnd = serverLsn;
        }
        if (System.nanoTime() - lastPublishNanos > heartbeatAfterNanos) {
            publishHeartbeat();
        }
    }

    @Override
    public void begin(long finalLsn, long commitTimeMicros, int xid) {
        if (open) {
            throw new FetchFailedException(
                    "pgoutput transaction began inside another: open="
                            + new Lsn(commitLsn)
                            + ", new="
                            + new Lsn(finalLsn));
        }
        open = true;
        commitLsn = finalLsn;
        this.xid = Integer.toUnsignedString(xid);
        writer.open(finalLsn, commitTimeMicros, this.xid);
        schemaChanges.open(finalLsn - 1, commitTimeMicros, this.xid);
    }

    @Override
    public void commit(long commitLsn, long endLsn, long commitTimeMicros)
            throws InterruptedException {
        if (!open || commitLsn != this.commitLsn) {
            throw new FetchFailedException(
                    "pgoutput commit without its begin: commitLsn="
                            + new Lsn(commitLsn)
                            + ", open="
                            + open);
        }
        String before = committed().toString();
        if (schemaChanges.hasEvents()) {
            schemaChanges.end();
            // Resuming here re-reads this transaction, whose rows follow the change.
            sink.accept(
                    schemaChanges.scn(),
                    schemaChanges.frames(),
                    schemaChanges.length(),
                    schemaChanges.events(),
                    schemaChanges.commitTimeMicros(),
                    before);
            lastPublishNanos = System.nanoTime();
        }
        boolean published = writer.hasEvents();
        if (published) {
            writer.end();
            sink.accept(
                    commitLsn,
                    writer.frames(),
                    writer.length(),
                    writer.events(),
                    writer.commitTimeMicros(),
                    new Lsn(endLsn).toString());
            lastPublishNanos = System.nanoTime();
        }
        committedEnd = endLsn;
        open = false;
        if (!published && System.nanoTime() - lastPublishNanos > heartbeatAfterNanos) {
            publishHeartbeat();
        }
    }

    @Override
    public void relation(PgOutputDecoder.RelationMessage relation) {
        if (!router.captures(relation.namespace(), relation.name())) {
            relations.put(relation.relationId(), UNCAPTURED);
            return;
        }
        try {
            relations.put(relation.relationId(), bind(relation));
        } catch (SQLException e) {
            throw new FetchFailedException(
                    "catalog lookup failed for a relation: table="
                            + relation.namespace()
                            + "."
                            + relation.name()
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    private Binding bind(PgOutputDecoder.RelationMessage relation) throws SQLException {
        String table = relation.namespace() + "." + relation.name();
        Map<String, Boolean> nullable = catalog.nullability(relation.relationId());
        List<Column> columns = new ArrayList<>();
        PgValueKind[] kinds = new PgValueKind[relation.columns().size()];
        for (int i = 0; i < kinds.length; i++) {
            var message = relation.columns().get(i);
            var typed =
                    catalog.column(
                            message.name(),
                            message.typeOid(),
                            message.typmod(),
                            nullable.getOrDefault(message.name(), true));
            if (typed.kind() == null) {
                throw new FetchFailedException(
                        "column type the fetcher cannot carry: table="
                                + table
                                + ", column="
                                + message.name()
                                + ", type="
                                + typed.typeName()
                                + ", scn="
                                + commitLsn
                                + "; exclude the table (capture.exclude) or change the column's type");
            }
            columns.add(typed.column());
            kinds[i] = typed.kind();
        }
        List<String> key = catalog.primaryKey(relation.relationId());
        List<String> names = columns.stream().map(Column::name).toList();
        if (!names.containsAll(key)) {
            key = List.of(); // the key changed after this WAL was written: rows are keyless here
        }
        Optional<TableSchema> before = registry.latest(relation.namespace(), relation.name());
        TableSchema schema = registry.register(relation.namespace(), relation.name(), columns, key);
        if (before.isEmpty() || before.get().version() != schema.version()) {
            // Persisted before anything names it, at the SCN of its schema change.
            history.append(commitLsn - 1, schema);
            TableRoute changed = router.routeChanged(schema);
            if (changed != null) {
                if (!open) {
                    throw new FetchFailedException(
                            "pgoutput relation change outside a transaction: table=" + table);
                }
                schemaChanges.appendSchemaChange(
                        changed, "-- pgoutput relation " + table + ": " + describe(columns));
            }
        }
        TableRoute route = router.route(schema);
        return route == null ? UNCAPTURED : new Binding(schema, kinds, route);
    }

    private static String describe(List<Column> columns) {
        List<String> parts = new ArrayList<>();
        for (Column column : columns) {
            parts.add(column.name() + " " + column.sourceType());
        }
        return String.join(", ", parts);
    }

    @Override
    public void insert(int relationId, PgOutputDecoder.Tuple after) {
        Binding binding = binding(relationId);
        if (binding != UNCAPTURED) {
            append(binding, Operation.INSERT, null, values(binding, after, null));
        }
    }

    @Override
    public void update(
            int relationId,
            PgOutputDecoder.Tuple before,
            boolean keyOnly,
            PgOutputDecoder.Tuple after) {
        Binding binding = binding(relationId);
        if (binding == UNCAPTURED) {
            return;
        }
        requireWholeBefore(binding, before, keyOnly, "update");
        Object[] old = values(binding, before, null);
        append(binding, Operation.UPDATE, old, values(binding, after, old));
    }

    @Override
    public void delete(int relationId, PgOutputDecoder.Tuple before, boolean keyOnly) {
        Binding binding = binding(relationId);
        if (binding != UNCAPTURED) {
            requireWholeBefore(binding, before, keyOnly, "delete");
            append(binding, Operation.DELETE, values(binding, before, null), null);
        }
    }

    @Override
    public void truncate(int[] relationIds) {
        List<String> captured = new ArrayList<>();
        for (int id : relationIds) {
            Binding binding = relations.get(id);
            if (binding != null && binding != UNCAPTURED) {
                captured.add(binding.schema().qualifiedName());
            }
        }
        if (!captured.isEmpty()) {
            throw new FetchFailedException(
                    "TRUNCATE of captured tables cannot be carried on the timeline: tables="
                            + captured
                            + ", scn="
                            + commitLsn
                            + ", xid="
                            + xid
                            + "; restart the relay past it (source.start) and bootstrap its consumers, or publish"
                            + " without truncate (ALTER PUBLICATION ... SET (publish = 'insert, update, delete'))"
                            + " to ignore truncates");
        }
    }

    private Binding binding(int relationId) {
        Binding binding = relations.get(relationId);
        if (binding == null) {
            throw new FetchFailedException(
                    "pgoutput row without a Relation message: relationId="
                            + relationId
                            + ", scn="
                            + commitLsn);
        }
        return binding;
    }

    private void requireWholeBefore(
            Binding binding, PgOutputDecoder.Tuple before, boolean keyOnly, String what) {
        if (before == null || keyOnly) {
            throw new FetchFailedException(
                    what
                            + " without the whole old row: table="
                            + binding.schema().qualifiedName()
                            + ", scn="
                            + commitLsn
                            + "; fix: ALTER TABLE "
                            + binding.schema().qualifiedName()
                            + " REPLICA IDENTITY FULL");
        }
    }

    /** A tuple's values; an unchanged TOASTed value is taken from {@code old}. */
    private Object[] values(Binding binding, PgOutputDecoder.Tuple tuple, Object[] old) {
        String[] texts = tuple.values();
        PgValueKind[] kinds = binding.kinds();
        if (texts.length != kinds.length) {
            throw new FetchFailedException(
                    "row of another width than its Relation: table="
                            + binding.schema().qualifiedName()
                            + ", columns="
                            + kinds.length
                            + ", values="
                            + texts.length
                            + ", scn="
                            + commitLsn);
        }
        Object[] values = new Object[texts.length];
        for (int i = 0; i < texts.length; i++) {
            if (tuple.unchanged()[i]) {
                if (old == null) {
                    throw new FetchFailedException(
                            "unchanged TOASTed value without an old row: table="
                                    + binding.schema().qualifiedName()
                                    + ", column="
                                    + binding.schema().column(i).name()
                                    + ", scn="
                                    + commitLsn
                                    + "; fix: ALTER TABLE "
                                    + binding.schema().qualifiedName()
                                    + " REPLICA IDENTITY FULL");
                }
                values[i] = old[i];
            } else if (texts[i] != null) {
                try {
                    values[i] =
                            PgValues.parse(kinds[i], texts[i], binding.schema().column(i).width());
                } catch (RuntimeException e) {
                    throw new FetchFailedException(
                            "value the fetcher cannot carry: table="
                                    + binding.schema().qualifiedName()
                                    + ", column="
                                    + binding.schema().column(i).name()
                                    + ", type="
                                    + binding.schema().column(i).sourceType()
                                    + ", scn="
                                    + commitLsn
                                    + ", xid="
                                    + xid
                                    + ", reason="
                                    + e.getMessage(),
                            e);
                }
            }
        }
        return values;
    }

    private void append(Binding binding, Operation op, Object[] before, Object[] after) {
        if (!open) {
            throw new FetchFailedException(
                    "pgoutput row outside a transaction: table="
                            + binding.schema().qualifiedName());
        }
        if (writer.appendRow(binding.route(), op, before, after)
                && writer.length() > maxTransactionBytes) {
            throw new FetchFailedException(
                    "transaction larger than the relay can publish whole: scn="
                            + commitLsn
                            + ", xid="
                            + xid
                            + ", bytesSoFar="
                            + writer.length()
                            + ", events="
                            + writer.events()
                            + ", maxTransactionBytes="
                            + maxTransactionBytes
                            + "; raise the relay's buffer segment size");
        }
    }

    private void publishHeartbeat() throws InterruptedException {
        long scn = committedEnd - 2;
        writer.heartbeat(scn, System.currentTimeMillis() * 1_000L);
        sink.accept(
                scn,
                writer.frames(),
                writer.length(),
                0,
                writer.commitTimeMicros(),
                committed().toString());
        lastPublishNanos = System.nanoTime();
    }
}
