package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tracker's state: every database with its default character set, every table with its current
 * schema version and default character set, and the names of views (which share the table
 * namespace). Changed only through {@link CatalogOp}s, so that replaying persisted operations
 * rebuilds exactly the state the tracker had.
 *
 * <p>Not thread-safe: owned by the tracker's one thread.
 */
final class Catalog {

    /** A table's current version and default character set. */
    record TrackedTable(TableSchema schema, String charset) {

        TableDefinition definition() {
            return new TableDefinition(
                    schema.database(),
                    schema.table(),
                    schema.columns(),
                    schema.keyColumns(),
                    charset);
        }
    }

    private final Map<String, String> databases = new LinkedHashMap<>();
    private final Map<TableName, TrackedTable> tables = new LinkedHashMap<>();
    private final Map<Integer, TableName> nameById = new HashMap<>();
    private final Set<TableName> views = new LinkedHashSet<>();

    /**
     * Applies one operation.
     *
     * @throws IllegalStateException if it does not fit the state (a table id under two names)
     */
    void apply(CatalogOp op) {
        if (op instanceof CatalogOp.PutDatabase put) {
            databases.put(put.database().name(), put.database().charset());
        } else if (op instanceof CatalogOp.DropDatabase drop) {
            databases.remove(drop.name());
            List.copyOf(tables.keySet()).stream()
                    .filter(name -> name.database().equals(drop.name()))
                    .forEach(this::removeTable);
            views.removeIf(name -> name.database().equals(drop.name()));
        } else if (op instanceof CatalogOp.PutTable put) {
            TableSchema schema = put.schema();
            TableName name = new TableName(schema.database(), schema.table());
            TableName previous = nameById.get(schema.tableId());
            if (previous != null) {
                tables.remove(previous); // renamed, or a new version under the same name
            }
            TrackedTable replaced = tables.put(name, new TrackedTable(schema, put.charset()));
            if (replaced != null && replaced.schema().tableId() != schema.tableId()) {
                throw new IllegalStateException(
                        "table name taken by another table: table="
                                + name
                                + ", tableId="
                                + replaced.schema().tableId()
                                + ", newTableId="
                                + schema.tableId());
            }
            nameById.put(schema.tableId(), name);
        } else if (op instanceof CatalogOp.DropTable drop) {
            removeTable(drop.name());
        } else if (op instanceof CatalogOp.PutView put) {
            views.add(put.name());
        } else if (op instanceof CatalogOp.DropView drop) {
            views.remove(drop.name());
        }
    }

    private void removeTable(TableName name) {
        TrackedTable removed = tables.remove(name);
        if (removed != null) {
            nameById.remove(removed.schema().tableId());
        }
    }

    Optional<TrackedTable> table(TableName name) {
        return Optional.ofNullable(tables.get(name));
    }

    /** The names of every tracked table. */
    List<TableName> tableNames() {
        return List.copyOf(tables.keySet());
    }

    /** A planning copy of the state. */
    Workspace workspace(ServerDialect dialect) {
        Map<TableName, TableDefinition> definitions = new LinkedHashMap<>();
        tables.forEach((name, tracked) -> definitions.put(name, tracked.definition()));
        return new Workspace(dialect, databases, definitions, views);
    }

    /** The operations that build this state from nothing: databases, tables, views. */
    List<CatalogOp> asOps() {
        List<CatalogOp> ops = new ArrayList<>();
        databases.forEach(
                (name, charset) ->
                        ops.add(new CatalogOp.PutDatabase(new DatabaseDefinition(name, charset))));
        tables.values().forEach(t -> ops.add(new CatalogOp.PutTable(t.schema(), t.charset())));
        views.forEach(name -> ops.add(new CatalogOp.PutView(name)));
        return ops;
    }

    /** The state without registry ids, as {@link InformationSchemaReader} reads it. */
    SchemaSnapshot snapshot(ServerDialect dialect) {
        List<DatabaseDefinition> databaseList = new ArrayList<>();
        databases.forEach(
                (name, charset) -> databaseList.add(new DatabaseDefinition(name, charset)));
        List<TableDefinition> tableList =
                tables.values().stream().map(TrackedTable::definition).toList();
        return new SchemaSnapshot(dialect, databaseList, tableList, List.copyOf(views));
    }
}
