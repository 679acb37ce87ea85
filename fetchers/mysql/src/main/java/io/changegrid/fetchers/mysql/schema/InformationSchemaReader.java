package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import io.changegrid.policy.capture.TableFilter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every database, table and view outside the system databases from information_schema: each
 * database's default character set (SCHEMATA), each table's default character set (from
 * TABLES.TABLE_COLLATION), columns in ORDINAL_POSITION order (COLUMNS), and the primary key in
 * SEQ_IN_INDEX order (STATISTICS, index {@code PRIMARY}); plus the server settings of {@link
 * ServerDialect}. ENUM and SET labels with a {@code ?}, which information_schema writes for a
 * character outside {@code utf8mb3}, are read again by {@link LabelReader} on MariaDB, so the
 * schema does not depend on information_schema's character set there. MySQL has no anonymous blocks
 * to read them with: its labels are information_schema's.
 *
 * <p>information_schema is not transactional: the caller makes sure no DDL runs while it reads (for
 * example by reading the binlog position before and after, and reading again if it moved). The
 * connection needs SELECT on the tables it should see; the replication user's grants suffice.
 *
 * <p>Stateless; thread-safe (each call uses the connection it is given).
 */
public final class InformationSchemaReader {

    private static final Logger LOG = LoggerFactory.getLogger(InformationSchemaReader.class);

    private static final String NOT_SYSTEM =
            " NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')";

    /** Tables with rows: sequences are one-row tables, system-versioned tables are tables. */
    private static final String TABLE_TYPES = " IN ('BASE TABLE', 'SYSTEM VERSIONED', 'SEQUENCE')";

    /** A table as read, before it is checked. */
    private record Draft(
            TableName name, String collation, List<Column> columns, List<String> key) {}

    /**
     * Reads the snapshot.
     *
     * @throws SQLException from the server
     * @throws IllegalArgumentException naming the column of a type no {@link Column} can carry
     */
    public SchemaSnapshot read(Connection connection) throws SQLException {
        ServerDialect dialect = readDialect(connection);
        List<DatabaseDefinition> databases = readDatabases(connection, dialect);
        Map<TableName, Draft> drafts = new LinkedHashMap<>();
        List<TableName> views = new ArrayList<>();
        readTables(connection, drafts, views);
        readColumns(connection, drafts);
        readKeys(connection, drafts);
        if (dialect.flavor() == ServerDialect.Flavor.MARIADB) {
            rereadLabels(connection, drafts);
        }
        List<TableDefinition> tables = new ArrayList<>();
        for (Draft draft : drafts.values()) {
            if (draft.columns().isEmpty()) {
                // information_schema lists a table whose engine cannot open it without columns.
                LOG.warn("table without readable columns left out: table={}", draft.name());
                continue;
            }
            String charset = tableCharset(draft, dialect, databases);
            tables.add(
                    new TableDefinition(
                            draft.name().database(),
                            draft.name().table(),
                            draft.columns(),
                            draft.key(),
                            charset));
        }
        return new SchemaSnapshot(dialect, databases, tables, views);
    }

    /**
     * A table's default character set: that of its collation. A table without one (an engine that
     * has none) or with a collation that fits any Unicode set ({@code uca1400_*}) takes its
     * database's, as a column added to it would.
     */
    private static String tableCharset(
            Draft draft, ServerDialect dialect, List<DatabaseDefinition> databases) {
        if (draft.collation() != null) {
            var charset = dialect.charsetOfCollation(draft.collation());
            if (charset.isPresent()) {
                return charset.get();
            }
        }
        return databases.stream()
                .filter(database -> database.name().equals(draft.name().database()))
                .map(DatabaseDefinition::charset)
                .findFirst()
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "table in no database: table=" + draft.name()));
    }

    /**
     * The server's settings: family and version, {@code character_set_server}, what {@code utf8}
     * means, {@code explicit_defaults_for_timestamp}, {@code lower_case_table_names}.
     */
    public ServerDialect readDialect(Connection connection) throws SQLException {
        try (PreparedStatement statement =
                        connection.prepareStatement(
                                "SELECT @@version, @@character_set_server,"
                                        + " @@explicit_defaults_for_timestamp,"
                                        + " @@lower_case_table_names");
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            String version = rs.getString(1);
            boolean mariaDb = version.toLowerCase(Locale.ROOT).contains("mariadb");
            String utf8 = mariaDb ? mariaDbUtf8(connection) : "utf8mb3";
            return new ServerDialect(
                    mariaDb ? ServerDialect.Flavor.MARIADB : ServerDialect.Flavor.MYSQL,
                    ServerDialect.versionNumber(version),
                    rs.getString(2),
                    utf8,
                    rs.getBoolean(3),
                    rs.getInt(4) == 1);
        }
    }

    /**
     * MariaDB 10.6+ takes {@code utf8} for {@code utf8mb3} only with this {@code old_mode} flag.
     */
    private static String mariaDbUtf8(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT @@old_mode");
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            String oldMode = rs.getString(1);
            return oldMode != null && oldMode.toUpperCase(Locale.ROOT).contains("UTF8_IS_UTF8MB3")
                    ? "utf8mb3"
                    : "utf8mb4";
        }
    }

    private static List<DatabaseDefinition> readDatabases(
            Connection connection, ServerDialect dialect) throws SQLException {
        List<DatabaseDefinition> databases = new ArrayList<>();
        try (PreparedStatement statement =
                        connection.prepareStatement(
                                "SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME"
                                        + " FROM information_schema.SCHEMATA"
                                        + " WHERE SCHEMA_NAME"
                                        + NOT_SYSTEM);
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                if (!TableFilter.isSystemDatabase(rs.getString(1))) {
                    databases.add(
                            new DatabaseDefinition(
                                    rs.getString(1), dialect.charset(rs.getString(2))));
                }
            }
        }
        return databases;
    }

    private static void readTables(
            Connection connection, Map<TableName, Draft> drafts, List<TableName> views)
            throws SQLException {
        try (PreparedStatement statement =
                        connection.prepareStatement(
                                "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, TABLE_COLLATION"
                                        + " FROM information_schema.TABLES"
                                        + " WHERE TABLE_SCHEMA"
                                        + NOT_SYSTEM
                                        + " AND (TABLE_TYPE"
                                        + TABLE_TYPES
                                        + " OR TABLE_TYPE = 'VIEW')");
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                TableName name = new TableName(rs.getString(1), rs.getString(2));
                if (TableFilter.isSystemDatabase(name.database())) {
                    continue;
                }
                if ("VIEW".equals(rs.getString(3))) {
                    views.add(name);
                } else {
                    drafts.put(
                            name,
                            new Draft(name, rs.getString(4), new ArrayList<>(), new ArrayList<>()));
                }
            }
        }
    }

    private static void readColumns(Connection connection, Map<TableName, Draft> drafts)
            throws SQLException {
        try (PreparedStatement statement =
                        connection.prepareStatement(
                                "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE,"
                                        + " IS_NULLABLE, CHARACTER_SET_NAME, DATA_TYPE"
                                        + " FROM information_schema.COLUMNS"
                                        + " WHERE TABLE_SCHEMA"
                                        + NOT_SYSTEM
                                        + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION");
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                Draft draft = drafts.get(new TableName(rs.getString(1), rs.getString(2)));
                if (draft == null) {
                    continue; // a view's columns
                }
                String name = rs.getString(3);
                String columnType = rs.getString(4);
                String dataType = rs.getString(7);
                if (!columnType
                        .toLowerCase(Locale.ROOT)
                        .startsWith(dataType.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(
                            "column type does not start with its data type: table="
                                    + draft.name()
                                    + ", column="
                                    + name
                                    + ", type="
                                    + columnType
                                    + ", dataType="
                                    + dataType);
                }
                draft.columns()
                        .add(
                                MySqlColumnTypes.column(
                                        name,
                                        columnType,
                                        rs.getString(6),
                                        "YES".equals(rs.getString(5))));
            }
        }
    }

    /**
     * ENUM and SET labels that information_schema may have damaged (see {@link LabelReader}) are
     * read again from the server.
     */
    private static void rereadLabels(Connection connection, Map<TableName, Draft> drafts)
            throws SQLException {
        for (Draft draft : drafts.values()) {
            List<Column> columns = draft.columns();
            for (int i = 0; i < columns.size(); i++) {
                if (LabelReader.mayHaveLostCharacters(columns.get(i))) {
                    columns.set(i, LabelReader.reread(connection, draft.name(), columns.get(i)));
                }
            }
        }
    }

    private static void readKeys(Connection connection, Map<TableName, Draft> drafts)
            throws SQLException {
        try (PreparedStatement statement =
                        connection.prepareStatement(
                                "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME"
                                        + " FROM information_schema.STATISTICS"
                                        + " WHERE INDEX_NAME = 'PRIMARY' AND TABLE_SCHEMA"
                                        + NOT_SYSTEM
                                        + " ORDER BY TABLE_SCHEMA, TABLE_NAME, SEQ_IN_INDEX");
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                Draft draft = drafts.get(new TableName(rs.getString(1), rs.getString(2)));
                if (draft != null) {
                    draft.key().add(rs.getString(3));
                }
            }
        }
    }
}
