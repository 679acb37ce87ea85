package io.changegrid.events.schema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The versioned schemas of every captured table of one source.
 *
 * <p>Each table gets an id the first time it is registered and keeps it across renames; each change
 * of its definition becomes a new version. Old versions are never removed, because frames written
 * with them may still be in a buffer or replayed after a restart.
 *
 * <p>Threading: one writer (the fetcher that reads the source's DDL) and any number of readers
 * (publishers, HTTP handlers, decoders). Lookups are lock-free; writes are serialized.
 */
public final class SchemaRegistry {

    /**
     * Told of every version the registry learns, e.g. to persist it. Called on the writer thread.
     */
    @FunctionalInterface
    public interface Listener {
        void onNewVersion(TableSchema schema);
    }

    private final Map<Long, TableSchema> byIdAndVersion = new ConcurrentHashMap<>();
    private final Map<Integer, TableSchema> latestById = new ConcurrentHashMap<>();
    private final Map<TableName, Integer> idByName = new ConcurrentHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private int nextTableId = 1;

    /** Adds a listener for new versions. */
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    /**
     * Registers the current definition of a table: a new table gets a new id and version 1; a known
     * table whose definition changed gets its next version; an unchanged table gets its latest
     * version back.
     */
    public synchronized TableSchema register(
            String database, String table, List<Column> columns, List<String> keyColumns) {
        Integer id = idByName.get(qualified(database, table));
        if (id == null) {
            return add(new TableSchema(nextTableId, 1, database, table, columns, keyColumns));
        }
        TableSchema latest = latestById.get(id);
        TableSchema candidate =
                new TableSchema(id, latest.version() + 1, database, table, columns, keyColumns);
        return candidate.sameDefinitionAs(latest) ? latest : add(candidate);
    }

    /**
     * Renames a table, keeping its id and columns, as a new version.
     *
     * @throws UnknownSchemaException if no table has the old name
     */
    public synchronized TableSchema rename(
            String database, String table, String newDatabase, String newTable) {
        TableSchema latest =
                latest(database, table)
                        .orElseThrow(
                                () ->
                                        new UnknownSchemaException(
                                                "cannot rename unknown table: table="
                                                        + qualified(database, table)));
        idByName.remove(qualified(database, table));
        return add(
                new TableSchema(
                        latest.tableId(),
                        latest.version() + 1,
                        newDatabase,
                        newTable,
                        latest.columns(),
                        latest.keyColumns()));
    }

    /**
     * Forgets a table's name, so that a table created later under the same name is a new table with
     * a new id. Its versions stay, for frames written before the drop.
     */
    public synchronized void drop(String database, String table) {
        idByName.remove(qualified(database, table));
    }

    /**
     * Adds a version read back from storage, keeping its id and version. Used when a relay
     * restarts.
     *
     * @throws IllegalArgumentException if a different schema already has that id and version
     */
    public synchronized void restore(TableSchema schema) {
        TableSchema existing = byIdAndVersion.get(key(schema.tableId(), schema.version()));
        if (existing != null) {
            if (!existing.equals(schema)) {
                throw new IllegalArgumentException(
                        "conflicting schema for table id and version: existing="
                                + existing
                                + ", restored="
                                + schema);
            }
            return;
        }
        byIdAndVersion.put(key(schema.tableId(), schema.version()), schema);
        TableSchema latest = latestById.get(schema.tableId());
        if (latest == null || latest.version() < schema.version()) {
            if (latest != null) {
                idByName.remove(qualified(latest.database(), latest.table()), latest.tableId());
            }
            latestById.put(schema.tableId(), schema);
            idByName.put(qualified(schema.database(), schema.table()), schema.tableId());
        }
        nextTableId = Math.max(nextTableId, schema.tableId() + 1);
    }

    /**
     * The given version of the given table.
     *
     * @throws UnknownSchemaException if the registry does not hold it
     */
    public TableSchema schema(int tableId, int version) {
        TableSchema schema = byIdAndVersion.get(key(tableId, version));
        if (schema == null) {
            throw new UnknownSchemaException(
                    "unknown schema: tableId=" + tableId + ", version=" + version);
        }
        return schema;
    }

    /** The latest version of the table now known under this name. */
    public Optional<TableSchema> latest(String database, String table) {
        Integer id = idByName.get(qualified(database, table));
        return id == null ? Optional.empty() : Optional.of(latestById.get(id));
    }

    /** The latest version of every table, dropped ones included, ordered by table id. */
    public List<TableSchema> latestVersions() {
        List<TableSchema> latest = new ArrayList<>(latestById.values());
        latest.sort(Comparator.comparingInt(TableSchema::tableId));
        return latest;
    }

    /** Every version of every table, ordered by table id and version. */
    public List<TableSchema> allVersions() {
        List<TableSchema> all = new ArrayList<>(byIdAndVersion.values());
        all.sort(
                Comparator.comparingInt(TableSchema::tableId)
                        .thenComparingInt(TableSchema::version));
        return all;
    }

    private TableSchema add(TableSchema schema) {
        byIdAndVersion.put(key(schema.tableId(), schema.version()), schema);
        latestById.put(schema.tableId(), schema);
        idByName.put(qualified(schema.database(), schema.table()), schema.tableId());
        nextTableId = Math.max(nextTableId, schema.tableId() + 1);
        for (Listener listener : listeners) {
            listener.onNewVersion(schema);
        }
        return schema;
    }

    private static long key(int tableId, int version) {
        return ((long) tableId << 32) | (version & 0xFFFF_FFFFL);
    }

    private static TableName qualified(String database, String table) {
        return new TableName(database, table);
    }

    /** A table's name; a record rather than a joined string because names may contain dots. */
    private record TableName(String database, String table) {
        @Override
        public String toString() {
            return database + "." + table;
        }
    }
}
