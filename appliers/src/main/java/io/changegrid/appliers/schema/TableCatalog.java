package io.changegrid.appliers.schema;

import io.changegrid.appliers.dialect.DdlLock;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.typemap.TargetColumn;
import io.changegrid.appliers.typemap.UnmappableTypeException;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target tables of the source tables seen so far, and the DDL that keeps them fitting their
 * source: on a table's first row, the target table is created if missing and given missing columns;
 * on a SCHEMA_CHANGE, columns are renamed, added, dropped and retyped to match. Every step compares
 * with what the target holds (information_schema), so running it again after a crash does nothing
 * twice. Reading the target's columns happens once per table version, never per row. The comparison
 * and its DDL run under the target's {@link Dialect#lockDdl DDL lock}, so the appliers of several
 * partitions meeting the same table see each other's work instead of repeating it.
 *
 * <p>Threading: used only on the applier's dispatcher thread.
 */
public final class TableCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(TableCatalog.class);

    /** {@code RENAME COLUMN a TO b} and {@code CHANGE [COLUMN] a b ...} in MySQL DDL. */
    private static final Pattern RENAME =
            Pattern.compile(
                    "(?i)\\bRENAME\\s+COLUMN\\s+(?:IF\\s+EXISTS\\s+)?`?([^`\\s,]+)`?\\s+TO\\s+`?([^`\\s,]+)`?");

    private static final Pattern CHANGE =
            Pattern.compile(
                    "(?i)\\bCHANGE\\s+(?:COLUMN\\s+)?(?:IF\\s+EXISTS\\s+)?`?([^`\\s,]+)`?\\s+`?([^`\\s,]+)`?");

    /** Columns the applier itself adds to target tables; never dropped. */
    public static final String OWN_COLUMN_PREFIX = "_cg_";

    private final Dialect dialect;
    private final String namespace;
    private final boolean createTables;
    private final SchemaChangeMode mode;
    private final boolean versioned;
    private final WriteOrder order;
    private final Map<Long, TargetTable> tables = new HashMap<>();
    private final Map<Integer, TableSchema> lastSeen = new HashMap<>();

    /**
     * @param namespace the target schema/database every table goes to, or {@code null} for the
     *     source table's own database name
     * @param createTables whether missing target tables are created from the source schema
     * @param mode whether column differences are applied or refused
     * @param versioned whether target tables keep the version of the change that wrote each row
     *     ({@link io.changegrid.appliers.conflict.VersionColumns}), for conflict resolution
     * @param order whether rows can be written in source commit order, which target tables with
     *     unique keys besides the primary key or in foreign keys need
     */
    public TableCatalog(
            Dialect dialect,
            String namespace,
            boolean createTables,
            SchemaChangeMode mode,
            boolean versioned,
            WriteOrder order) {
        this.dialect = dialect;
        this.namespace = namespace;
        this.createTables = createTables;
        this.mode = mode;
        this.versioned = versioned;
        this.order = order;
    }

    /** The source columns' target forms, then the version columns of a versioned table. */
    private List<TargetColumn> columnsOf(TableSchema schema) {
        List<TargetColumn> columns = new ArrayList<>(dialect.types().mapAll(schema));
        if (versioned) {
            for (Column column : VersionColumns.COLUMNS) {
                columns.add(dialect.types().map(column));
            }
        }
        return columns;
    }

    /**
     * Checks that every column of these tables has a lossless target type, before anything is
     * applied.
     *
     * @throws UnmappableTypeException naming every column of every table that has none
     */
    public void checkTypes(Collection<TableSchema> tables) {
        List<UnmappableTypeException> refusals = new ArrayList<>();
        for (TableSchema table : tables) {
            try {
                columnsOf(table);
            } catch (UnmappableTypeException e) {
                refusals.add(e);
            }
        }
        if (!refusals.isEmpty()) {
            throw UnmappableTypeException.of(refusals);
        }
    }

    /** The target namespace of a source table. */
    public String namespaceOf(TableSchema schema) {
        return namespace != null ? namespace : schema.database();
    }

    /** The target table of a source table, qualified and quoted. */
    public String nameOf(TableSchema schema) {
        return dialect.qualified(namespaceOf(schema), schema.table());
    }

    /** The target table of a source table named so, qualified and quoted. */
    public String nameOf(String database, String table) {
        return dialect.qualified(namespace != null ? namespace : database, table);
    }

    /** Whether the target table of the source table named so exists. */
    public boolean exists(Connection connection, String database, String table)
            throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT count(*) FROM information_schema.tables"
                                + " WHERE table_schema = ? AND table_name = ?")) {
            select.setString(1, namespace != null ? namespace : database);
            select.setString(2, table);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getLong(1) > 0;
            }
        }
    }

    /**
     * The target table for rows of this schema version; on its first use, makes the target table
     * fit it (create it, add missing columns).
     *
     * @param connection an autocommit connection for the DDL and information_schema reads
     * @throws io.changegrid.appliers.typemap.UnmappableTypeException naming columns without a
     *     target type
     * @throws SchemaChangeRefusedException if the table or a column is missing and may not be made
     * @throws IllegalArgumentException naming the table if it has no primary key, or naming the
     *     target table's unique keys other than its primary key and the foreign keys it takes part
     *     in when the settings write out of source commit order
     */
    public TargetTable table(Connection connection, TableSchema schema) throws SQLException {
        long id = ((long) schema.tableId() << 32) | schema.version();
        TargetTable table = tables.get(id);
        if (table == null) {
            describe(schema, Map.of()); // refuses unmappable types before anything changes
            DdlLock lock = dialect.lockDdl(connection);
            try {
                reconcile(connection, schema, null, false);
            } finally {
                lock.close();
            }
            table = describe(schema, targetCharsets(connection, schema));
            if (hasConstraints(connection, schema)) {
                table = table.inSourceOrder();
            }
            tables.put(id, table);
            lastSeen.putIfAbsent(schema.tableId(), schema);
        }
        return table;
    }

    /**
     * Makes the target table match a source schema change; runs in the connection's transaction
     * (PostgreSQL) or commits around each statement (MariaDB/MySQL).
     *
     * @param schema the table's new schema
     * @param ddl the source's DDL statement, read for column renames
     * @return the DDL statements run, for the log
     */
    public List<String> applyChange(Connection connection, TableSchema schema, String ddl)
            throws SQLException {
        if (!schema.hasKey()) {
            // Refused on its first row, if one ever comes: a keyless table may be left out.
            LOG.warn(
                    "schema change of a table without a primary key not applied: table={}, ddl={}",
                    schema.qualifiedName(),
                    ddl);
            return List.of();
        }
        String statement = ddl == null ? "" : ddl.stripLeading().toUpperCase(Locale.ROOT);
        if (statement.startsWith("DROP ")) {
            // Dropping target data is left to an operator: the target keeps the table.
            LOG.warn("source table dropped, target table kept: table={}", nameOf(schema));
            return List.of();
        }
        describe(schema, Map.of()); // refuses unmappable types before anything changes
        List<String> run;
        DdlLock lock = dialect.lockDdl(connection);
        try {
            run = new ArrayList<>(reconcile(connection, schema, ddl, true));
        } finally {
            lock.close();
        }
        if (statement.startsWith("TRUNCATE")) {
            // Its rows are gone at the source without row events; idempotent on a redelivery.
            String truncate = "DELETE FROM " + nameOf(schema);
            run(connection, List.of(truncate));
            run.add(truncate);
        }
        lastSeen.put(schema.tableId(), schema);
        return run;
    }

    /**
     * @param charsets the target columns' character sets by lower-case name, which decide how text
     *     is bound ({@link io.changegrid.appliers.typemap.TypeMapper#storedIn})
     */
    private TargetTable describe(TableSchema schema, Map<String, String> charsets) {
        if (!schema.hasKey()) {
            throw new IllegalArgumentException(
                    "table without a primary key cannot be applied by key: table="
                            + schema.qualifiedName());
        }
        List<TargetColumn> columns = new ArrayList<>();
        for (TargetColumn column : columnsOf(schema)) {
            String charset = charsets.get(column.name().toLowerCase(Locale.ROOT));
            columns.add(dialect.types().storedIn(column, charset));
        }
        List<TargetColumn> key = TargetTable.keyColumns(schema, columns);
        String name = nameOf(schema);
        return new TargetTable(
                schema,
                name,
                columns,
                dialect.upsert(name, columns, key),
                dialect.insert(name, columns),
                dialect.delete(name, key),
                changed -> dialect.update(name, changed, key));
    }

    private List<String> reconcile(
            Connection connection, TableSchema schema, String ddl, boolean isChange)
            throws SQLException {
        String name = nameOf(schema);
        List<TargetColumn> columns = columnsOf(schema);
        Map<String, String> existing = targetColumns(connection, schema);
        List<String> statements = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        if (existing.isEmpty()) {
            TableSchema previous = lastSeen.get(schema.tableId());
            if (isChange
                    && previous != null
                    && !previous.table().equals(schema.table())
                    && !targetColumns(connection, previous).isEmpty()) {
                changes.add("rename table from " + nameOf(previous));
                statements.add(
                        "ALTER TABLE "
                                + nameOf(previous)
                                + " RENAME TO "
                                + dialect.quote(schema.table()));
                existing = targetColumns(connection, previous);
            } else {
                if (!createTables) {
                    throw new SchemaChangeRefusedException(
                            name, List.of("table missing"), "target.createTables=false");
                }
                run(
                        connection,
                        List.of(
                                dialect.createNamespace(namespaceOf(schema)),
                                dialect.createTable(
                                        name, columns, TargetTable.keyColumns(schema, columns))));
                LOG.info("target table created: table={}", name);
                return List.of("create " + name);
            }
        }
        Map<String, String> byLower = new HashMap<>();
        existing.keySet().forEach(c -> byLower.put(c.toLowerCase(Locale.ROOT), c));
        Map<String, String> renames = isChange ? renames(ddl) : Map.of();
        for (Map.Entry<String, String> rename : renames.entrySet()) {
            String from = byLower.get(rename.getKey().toLowerCase(Locale.ROOT));
            String to = rename.getValue();
            if (from != null
                    && schema.indexOf(from) < 0
                    && schema.indexOf(to) >= 0
                    && !byLower.containsKey(to.toLowerCase(Locale.ROOT))) {
                changes.add("rename column " + from + " to " + to);
                statements.add(dialect.renameColumn(name, from, to));
                byLower.remove(from.toLowerCase(Locale.ROOT));
                byLower.put(to.toLowerCase(Locale.ROOT), to);
            }
        }
        TableSchema previous = lastSeen.get(schema.tableId());
        List<String> own = new ArrayList<>();
        for (TargetColumn column : columns) {
            if (!byLower.containsKey(column.name().toLowerCase(Locale.ROOT))) {
                if (column.name().startsWith(OWN_COLUMN_PREFIX)) {
                    own.add(dialect.addColumn(name, column)); // the applier's own: always added
                    continue;
                }
                changes.add("add column " + column.name());
                statements.add(dialect.addColumn(name, column));
            } else if (isChange && previous != null && retyped(previous, column.source())) {
                changes.add("change type of column " + column.name());
                statements.add(dialect.alterColumnType(name, column));
            }
        }
        if (isChange) {
            for (String target : byLower.values()) {
                if (schema.indexOf(target) < 0
                        && !target.startsWith(OWN_COLUMN_PREFIX)
                        && !containsIgnoreCase(schema, target)) {
                    changes.add("drop column " + target);
                    statements.add(dialect.dropColumn(name, target));
                }
            }
        }
        if (!own.isEmpty()) {
            run(connection, own);
            LOG.info("version columns added: table={}", name);
        }
        if (statements.isEmpty()) {
            return own;
        }
        if (mode == SchemaChangeMode.REFUSE) {
            throw new SchemaChangeRefusedException(name, changes, "apply.schemaChanges=refuse");
        }
        run(connection, statements);
        LOG.info("target table changed: table={}, changes={}", name, changes);
        return statements;
    }

    private static boolean containsIgnoreCase(TableSchema schema, String column) {
        for (Column c : schema.columns()) {
            if (c.name().equalsIgnoreCase(column)) {
                return true;
            }
        }
        return false;
    }

    private static boolean retyped(TableSchema previous, Column column) {
        int index = previous.indexOf(column.name());
        if (index < 0) {
            return false;
        }
        Column before = previous.column(index);
        return before.type() != column.type()
                || !before.sourceType().equals(column.sourceType())
                || before.nullable() != column.nullable();
    }

    private static Map<String, String> renames(String ddl) {
        Map<String, String> renames = new LinkedHashMap<>();
        if (ddl == null) {
            return renames;
        }
        for (Pattern pattern : List.of(RENAME, CHANGE)) {
            Matcher matcher = pattern.matcher(ddl);
            while (matcher.find()) {
                if (!matcher.group(1).equalsIgnoreCase(matcher.group(2))) {
                    renames.put(matcher.group(1), matcher.group(2));
                }
            }
        }
        return renames;
    }

    private static void run(Connection connection, List<String> statements) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /**
     * Whether the target table has unique keys besides its primary key or takes part in foreign
     * keys; such a table is written in source commit order ({@link TargetTable#inSourceOrder}).
     * Written the other way, by primary key in no order across keys (lanes, coalescing), a unique
     * key could be violated where the source never violated it, and on MariaDB/MySQL an upsert
     * meeting it would overwrite the row that holds the value, silently; a foreign key could see a
     * child row before its parent.
     *
     * @throws IllegalArgumentException naming the table, its constraints and the setting that
     *     writes out of source order, if one does
     */
    private boolean hasConstraints(Connection connection, TableSchema schema) throws SQLException {
        List<String> uniqueKeys = names(connection, dialect.otherUniqueKeysQuery(), schema, 1);
        List<String> foreignKeys = names(connection, dialect.foreignKeysQuery(), schema, 2);
        if (uniqueKeys.isEmpty() && foreignKeys.isEmpty()) {
            return false;
        }
        if (!order.keepsSourceOrder()) {
            throw new IllegalArgumentException(
                    "target table has unique keys besides its primary key or takes part in foreign"
                            + " keys, which only writes in source commit order keep: table="
                            + nameOf(schema)
                            + ", uniqueKeys="
                            + uniqueKeys
                            + ", foreignKeys="
                            + foreignKeys
                            + ", writesOutOfOrder="
                            + order.brokenBy()
                            + "; apply with apply.lanes=1, apply.mode=statement and no conflict"
                            + " rule, or drop the constraints in the target");
        }
        LOG.info(
                "target table has constraints, its rows are written in source commit order:"
                        + " table={}, uniqueKeys={}, foreignKeys={}",
                nameOf(schema),
                uniqueKeys,
                foreignKeys);
        return true;
    }

    /** The names a constraint query finds, its table parameters bound {@code times} times. */
    private List<String> names(Connection connection, String query, TableSchema schema, int times)
            throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(query)) {
            for (int i = 0; i < times; i++) {
                select.setString(2 * i + 1, namespaceOf(schema));
                select.setString(2 * i + 2, schema.table());
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
        }
        return names;
    }

    /** The target table's columns (name to data type) in order; empty if there is no table. */
    private Map<String, String> targetColumns(Connection connection, TableSchema schema)
            throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT column_name, data_type FROM information_schema.columns"
                                + " WHERE table_schema = ? AND table_name = ?"
                                + " ORDER BY ordinal_position")) {
            select.setString(1, namespaceOf(schema));
            select.setString(2, schema.table());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    columns.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return columns;
    }

    /**
     * The target table's text columns' character sets by lower-case column name (none on
     * PostgreSQL, whose columns have no character set of their own).
     */
    private Map<String, String> targetCharsets(Connection connection, TableSchema schema)
            throws SQLException {
        Map<String, String> charsets = new HashMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT column_name, character_set_name FROM information_schema.columns"
                                + " WHERE table_schema = ? AND table_name = ?"
                                + " AND character_set_name IS NOT NULL")) {
            select.setString(1, namespaceOf(schema));
            select.setString(2, schema.table());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    charsets.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getString(2));
                }
            }
        }
        return charsets;
    }
}
