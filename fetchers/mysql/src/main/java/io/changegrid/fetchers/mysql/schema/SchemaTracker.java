package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Keeps the schema of every table in every non-system database current as of the binlog position
 * being read, from the DDL statements of the binlog's QUERY events. All tables are tracked, not
 * just captured ones: the capture filter decides what is emitted, but a table renamed from an
 * uncaptured name to a captured one must arrive with its columns.
 *
 * <pre>{@code
 * var registry = new SchemaRegistry();
 * var tracker = SchemaTracker.fromSnapshot(new InformationSchemaReader().read(connection), registry);
 * var history = SchemaHistory.create(path, scn, tracker);
 * ...
 * switch (tracker.apply(queryEvent.getDatabase(), queryEvent.getSql())) { ... }
 * }</pre>
 *
 * <p>Every change registers a new version in the {@link SchemaRegistry}: a rename keeps the table
 * id ({@link SchemaRegistry#rename}), a drop forgets the name ({@link SchemaRegistry#drop}), a
 * table created again gets a new id. A statement is planned on a copy of the state and committed
 * only when understood in full, so an {@link DdlOutcome.Unsupported} statement changes nothing.
 *
 * <p>Threading: used by the one fetcher thread that reads the binlog; not thread-safe. The registry
 * it writes to is safe for readers on other threads.
 */
public final class SchemaTracker {

    private final ServerDialect dialect;
    private final SchemaRegistry registry;
    private final Catalog catalog;

    SchemaTracker(ServerDialect dialect, SchemaRegistry registry, Catalog catalog) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    /**
     * A tracker starting from a snapshot, registering every table of it in {@code registry} (sorted
     * by name, so ids are the same on every relay that reads the same server).
     */
    public static SchemaTracker fromSnapshot(SchemaSnapshot snapshot, SchemaRegistry registry) {
        Catalog catalog = new Catalog();
        snapshot.databases()
                .forEach(database -> catalog.apply(new CatalogOp.PutDatabase(database)));
        for (TableDefinition table : snapshot.tables()) {
            TableSchema schema =
                    registry.register(
                            table.database(), table.table(), table.columns(), table.keyColumns());
            catalog.apply(new CatalogOp.PutTable(schema, table.charset()));
        }
        snapshot.views().forEach(view -> catalog.apply(new CatalogOp.PutView(view)));
        return new SchemaTracker(snapshot.dialect(), registry, catalog);
    }

    /**
     * Applies one statement of a QUERY event.
     *
     * @param defaultDatabase the event's database (the session's {@code USE}), for unqualified
     *     names; null or empty for none
     * @param sql the statement text
     * @return what the statement did; never throws for a statement it cannot understand
     */
    public DdlOutcome apply(String defaultDatabase, String sql) {
        Workspace ws = catalog.workspace(dialect);
        DdlStatement statement;
        try {
            statement = DdlParser.parse(sql, defaultDatabase, dialect);
        } catch (UnsupportedDdlException e) {
            return new DdlOutcome.Unsupported(e.tables(), e.getMessage());
        } catch (IllegalArgumentException e) {
            return new DdlOutcome.Unsupported(List.of(), e.getMessage());
        }
        try {
            DdlPlanner.plan(statement, ws);
        } catch (UnsupportedDdlException e) {
            List<TableName> tables = e.tables().isEmpty() ? statement.tables() : e.tables();
            return new DdlOutcome.Unsupported(tables, e.getMessage());
        } catch (IllegalArgumentException e) {
            // An unknown character set or collation, a duplicate column, a missing length: what
            // the server would have refused, so the catalog is not the server's.
            return new DdlOutcome.Unsupported(statement.tables(), e.getMessage());
        }
        String kind =
                statement instanceof DdlStatement.Ignored ignored ? ignored.reason() : "no change";
        if (ws.changes().isEmpty()) {
            return new DdlOutcome.NotSchemaChange(kind);
        }
        return commit(ws.changes());
    }

    /**
     * Takes the schemas of some tables from the source instead of from a statement: the way past a
     * statement the tracker cannot understand, once an operator has chosen to skip it. A table in
     * {@code source} is created or altered to its definition there (same columns: same version); a
     * tracked table absent from {@code source} is dropped.
     *
     * @param source the source's schemas as read now (information_schema)
     * @param tables which tables to take from it
     * @return what changed, to persist and publish as for a statement
     */
    public DdlOutcome.Applied reread(SchemaSnapshot source, Predicate<TableName> tables) {
        List<Workspace.Change> changes = new ArrayList<>();
        Set<TableName> seen = new HashSet<>();
        for (TableDefinition table : source.tables()) {
            if (!tables.test(table.name())) {
                continue;
            }
            seen.add(table.name());
            changes.add(
                    catalog.table(table.name()).isPresent()
                            ? new Workspace.Change.Alter(table)
                            : new Workspace.Change.Create(table));
        }
        for (TableName tracked : catalog.tableNames()) {
            if (tables.test(tracked) && !seen.contains(tracked)) {
                changes.add(new Workspace.Change.Drop(tracked));
            }
        }
        return commit(changes);
    }

    private DdlOutcome.Applied commit(List<Workspace.Change> changes) {
        List<TableSchema> changed = new ArrayList<>();
        List<TableSchema> dropped = new ArrayList<>();
        List<TableSchema> truncated = new ArrayList<>();
        List<CatalogOp> ops = new ArrayList<>();
        for (Workspace.Change change : changes) {
            CatalogOp op = null;
            if (change instanceof Workspace.Change.Create c) {
                TableDefinition t = c.table();
                TableSchema schema =
                        registry.register(t.database(), t.table(), t.columns(), t.keyColumns());
                changed.add(schema);
                op = new CatalogOp.PutTable(schema, t.charset());
            } else if (change instanceof Workspace.Change.Alter a) {
                TableDefinition t = a.table();
                TableSchema before = current(t.name());
                TableSchema schema =
                        registry.register(t.database(), t.table(), t.columns(), t.keyColumns());
                if (schema.version() != before.version()) {
                    changed.add(schema);
                }
                op = new CatalogOp.PutTable(schema, t.charset());
            } else if (change instanceof Workspace.Change.Rename r) {
                String charset = catalog.table(r.from()).orElseThrow().charset();
                TableSchema schema =
                        registry.rename(
                                r.from().database(),
                                r.from().table(),
                                r.to().database(),
                                r.to().table());
                changed.add(schema);
                op = new CatalogOp.PutTable(schema, charset);
            } else if (change instanceof Workspace.Change.Drop d) {
                dropped.add(current(d.name()));
                registry.drop(d.name().database(), d.name().table());
                op = new CatalogOp.DropTable(d.name());
            } else if (change instanceof Workspace.Change.Truncate t) {
                truncated.add(current(t.name()));
            } else if (change instanceof Workspace.Change.PutDatabase p) {
                op = new CatalogOp.PutDatabase(p.database());
            } else if (change instanceof Workspace.Change.DropDatabase d) {
                op = new CatalogOp.DropDatabase(d.name());
            } else if (change instanceof Workspace.Change.PutView v) {
                op = new CatalogOp.PutView(v.name());
            } else if (change instanceof Workspace.Change.DropView v) {
                op = new CatalogOp.DropView(v.name());
            }
            if (op != null) {
                catalog.apply(op);
                ops.add(op);
            }
        }
        return new DdlOutcome.Applied(changed, dropped, truncated, ops);
    }

    private TableSchema current(TableName name) {
        return catalog.table(name)
                .orElseThrow(() -> new IllegalStateException("table not in catalog: table=" + name))
                .schema();
    }

    /** The current schema of a table, if it is tracked. */
    public Optional<TableSchema> table(String database, String table) {
        return catalog.table(new TableName(database, table)).map(Catalog.TrackedTable::schema);
    }

    /** The current state without registry ids, e.g. to compare with information_schema. */
    public SchemaSnapshot snapshot() {
        return catalog.snapshot(dialect);
    }

    /** The operations that rebuild the current state from nothing, for a new history. */
    List<CatalogOp> stateAsOps() {
        return catalog.asOps();
    }

    public ServerDialect dialect() {
        return dialect;
    }

    public SchemaRegistry registry() {
        return registry;
    }
}
