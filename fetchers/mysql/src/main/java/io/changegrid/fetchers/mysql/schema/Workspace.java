package io.changegrid.fetchers.mysql.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A private copy of the catalog that one statement is planned against, recording each change it
 * makes. The tracker commits the changes to the registry only when the whole statement was
 * understood, so an unsupported statement leaves no trace; and later parts of a statement see the
 * effect of earlier ones ({@code RENAME TABLE a TO b, b TO c}).
 *
 * <p>Not thread-safe; one per statement.
 */
final class Workspace {

    /** One change, in statement order. */
    sealed interface Change {
        record Create(TableDefinition table) implements Change {}

        record Alter(TableDefinition table) implements Change {}

        record Rename(TableName from, TableName to) implements Change {}

        record Drop(TableName name) implements Change {}

        record Truncate(TableName name) implements Change {}

        record PutDatabase(DatabaseDefinition database) implements Change {}

        record DropDatabase(String name) implements Change {}

        record PutView(TableName name) implements Change {}

        record DropView(TableName name) implements Change {}
    }

    private final ServerDialect dialect;
    private final Map<String, String> databases;
    private final Map<TableName, TableDefinition> tables;
    private final Set<TableName> views;
    private final List<Change> changes = new ArrayList<>();

    Workspace(
            ServerDialect dialect,
            Map<String, String> databases,
            Map<TableName, TableDefinition> tables,
            Set<TableName> views) {
        this.dialect = dialect;
        this.databases = new LinkedHashMap<>(databases);
        this.tables = new LinkedHashMap<>(tables);
        this.views = new LinkedHashSet<>(views);
    }

    ServerDialect dialect() {
        return dialect;
    }

    List<Change> changes() {
        return changes;
    }

    Optional<TableDefinition> table(TableName name) {
        return Optional.ofNullable(tables.get(name));
    }

    boolean hasView(TableName name) {
        return views.contains(name);
    }

    Optional<String> databaseCharset(String database) {
        return Optional.ofNullable(databases.get(database));
    }

    /** Creates a table, dropping one of the same name first (CREATE OR REPLACE). */
    void create(TableDefinition table) {
        if (tables.containsKey(table.name())) {
            drop(table.name());
        }
        tables.put(table.name(), table);
        changes.add(new Change.Create(table));
    }

    /** Replaces a table's definition under its name; nothing if the definition is the same. */
    void alter(TableDefinition table) {
        if (!table.equals(tables.get(table.name()))) {
            tables.put(table.name(), table);
            changes.add(new Change.Alter(table));
        }
    }

    void rename(TableName from, TableName to) {
        TableDefinition table = tables.remove(from);
        tables.put(to, table.renamed(to));
        changes.add(new Change.Rename(from, to));
    }

    void drop(TableName name) {
        tables.remove(name);
        changes.add(new Change.Drop(name));
    }

    void truncate(TableName name) {
        changes.add(new Change.Truncate(name));
    }

    void putDatabase(DatabaseDefinition database) {
        if (!database.charset().equals(databases.get(database.name()))) {
            databases.put(database.name(), database.charset());
            changes.add(new Change.PutDatabase(database));
        }
    }

    /** Drops a database with its tables and views. */
    void dropDatabase(String database) {
        for (TableName name : List.copyOf(tables.keySet())) {
            if (name.database().equals(database)) {
                drop(name);
            }
        }
        for (TableName name : List.copyOf(views)) {
            if (name.database().equals(database)) {
                dropView(name);
            }
        }
        databases.remove(database);
        changes.add(new Change.DropDatabase(database));
    }

    void putView(TableName name) {
        if (views.add(name)) {
            changes.add(new Change.PutView(name));
        }
    }

    void dropView(TableName name) {
        if (views.remove(name)) {
            changes.add(new Change.DropView(name));
        }
    }
}
