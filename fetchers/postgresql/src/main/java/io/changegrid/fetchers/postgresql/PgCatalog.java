package io.changegrid.fetchers.postgresql;

import io.changegrid.events.schema.Column;
import io.changegrid.policy.capture.TableFilter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the fetcher reads from the source's catalog: the captured tables, their columns (with how
 * each is carried), primary keys and replica identity. Relation messages give a table's columns as
 * the decoder sees them; the catalog adds what they lack (the type's kind, nullability, the primary
 * key: with REPLICA IDENTITY FULL every column is flagged as part of the identity).
 *
 * <p>Threading: one thread at a time (the fetcher's); it owns its connection.
 */
final class PgCatalog implements AutoCloseable {

    /** A captured table as the catalog has it now. */
    record Table(int oid, String schema, String name, char replicaIdentity) {
        String qualifiedName() {
            return schema + "." + name;
        }
    }

    /** A column carried as {@code kind}, or refused when {@code kind} is null. */
    record TypedColumn(Column column, PgValueKind kind, String typeName) {}

    /** A base type's facts, domains resolved. */
    private record BaseType(
            String name, String sourceName, char typtype, char category, PgValueKind kind) {}

    private final Connection connection;
    private final Map<Integer, BaseType> types = new HashMap<>();
    private final Map<Long, String> formatted = new HashMap<>();

    PgCatalog(Connection connection) {
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    /**
     * The user tables the filter captures, ordered by schema and name (so table ids are stable).
     */
    List<Table> capturedTables(TableFilter capture) throws SQLException {
        List<Table> tables = new ArrayList<>();
        try (var statement =
                        connection.prepareStatement(
                                "SELECT c.oid, n.nspname, c.relname, c.relreplident FROM pg_class c"
                                        + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                                        + " WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition"
                                        + " AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                                        + " AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'"
                                        + " ORDER BY n.nspname, c.relname");
                var rows = statement.executeQuery()) {
            while (rows.next()) {
                var table =
                        new Table(
                                rows.getInt(1),
                                rows.getString(2),
                                rows.getString(3),
                                rows.getString(4).charAt(0));
                if (capture.matches(table.schema(), table.name())) {
                    tables.add(table);
                }
            }
        }
        return tables;
    }

    /** A table's published columns now, in order (generated columns are not decoded). */
    List<TypedColumn> columns(int tableOid) throws SQLException {
        List<TypedColumn> columns = new ArrayList<>();
        try (PreparedStatement statement =
                connection.prepareStatement(
                        "SELECT attname, atttypid, atttypmod, attnotnull FROM pg_attribute"
                                + " WHERE attrelid = ? AND attnum > 0 AND NOT attisdropped AND attgenerated = ''"
                                + " ORDER BY attnum")) {
            statement.setInt(1, tableOid);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.add(
                            column(
                                    rows.getString(1),
                                    rows.getInt(2),
                                    rows.getInt(3),
                                    !rows.getBoolean(4)));
                }
            }
        }
        return columns;
    }

    /** A column of a Relation message, typed by the catalog. */
    TypedColumn column(String name, int typeOid, int typmod, boolean nullable) throws SQLException {
        BaseType base = baseType(typeOid);
        String sourceType = format(typeOid, typmod);
        int width = base.kind() == PgValueKind.BIT ? Math.max(typmod, 1) : 0;
        var column =
                new Column(
                        name,
                        base.kind() == null ? PgValueKind.TEXT.type() : base.kind().type(),
                        sourceType,
                        nullable,
                        width);
        return new TypedColumn(column, base.kind(), sourceType);
    }

    /** The primary key's columns in key order, or empty. */
    List<String> primaryKey(int tableOid) throws SQLException {
        List<String> key = new ArrayList<>();
        try (var statement =
                connection.prepareStatement(
                        "SELECT a.attname FROM pg_index i"
                                + " CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)"
                                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
                                + " WHERE i.indrelid = ? AND i.indisprimary ORDER BY k.ord")) {
            statement.setInt(1, tableOid);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    key.add(rows.getString(1));
                }
            }
        }
        return key;
    }

    /** Nullability by column name, for a Relation message's columns. */
    Map<String, Boolean> nullability(int tableOid) throws SQLException {
        Map<String, Boolean> nullable = new HashMap<>();
        try (var statement =
                connection.prepareStatement(
                        "SELECT attname, NOT attnotnull FROM pg_attribute WHERE attrelid = ? AND attnum > 0"
                                + " AND NOT attisdropped")) {
            statement.setInt(1, tableOid);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    nullable.put(rows.getString(1), rows.getBoolean(2));
                }
            }
        }
        return nullable;
    }

    private String format(int typeOid, int typmod) throws SQLException {
        long key = ((long) typeOid << 32) | (typmod & 0xFFFF_FFFFL);
        String known = formatted.get(key);
        if (known != null) {
            return known;
        }
        try (var statement = connection.prepareStatement("SELECT format_type(?, ?)")) {
            statement.setInt(1, typeOid);
            statement.setInt(2, typmod);
            try (var rows = statement.executeQuery()) {
                rows.next();
                String text = rows.getString(1);
                formatted.put(key, text);
                return text;
            }
        }
    }

    /** The type of an OID with domains resolved to their base type, and its kind. */
    private BaseType baseType(int oid) throws SQLException {
        BaseType known = types.get(oid);
        if (known != null) {
            return known;
        }
        String name;
        char typtype;
        char category;
        int baseOid;
        int elementOid;
        try (var statement =
                connection.prepareStatement(
                        "SELECT t.typname, t.typtype, t.typcategory, t.typbasetype, t.typelem, n.nspname"
                                + " FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = ?")) {
            statement.setInt(1, oid);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("type not in pg_type: oid=" + oid);
                }
                name = rows.getString(1);
                typtype = rows.getString(2).charAt(0);
                category = rows.getString(3).charAt(0);
                baseOid = rows.getInt(4);
                elementOid = rows.getInt(5);
                if (!"pg_catalog".equals(rows.getString(6)) && typtype == 'b' && category != 'A') {
                    name = rows.getString(6) + "." + name; // an extension's type: not one we map
                }
            }
        }
        BaseType type;
        if (typtype == 'd') {
            BaseType base = baseType(baseOid); // a domain is carried as its base type
            type = new BaseType(base.name(), name, typtype, base.category(), base.kind());
        } else {
            PgValueKind elementKind =
                    category == 'A' && elementOid != 0 ? baseType(elementOid).kind() : null;
            type =
                    new BaseType(
                            name,
                            name,
                            typtype,
                            category,
                            PgValueKind.of(name, typtype, category, elementKind));
        }
        types.put(oid, type);
        return type;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
