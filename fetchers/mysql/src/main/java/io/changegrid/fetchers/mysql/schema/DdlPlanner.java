package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import io.changegrid.policy.capture.TableFilter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Works out what one parsed statement does to the catalog, on a {@link Workspace}: new table
 * definitions, renames, drops, database defaults. Tables of the system databases are not tracked
 * and statements on them are passed over; a statement that names a table or database the catalog
 * does not have, where the server would have refused it, means the catalog is not the server's, and
 * is unsupported.
 *
 * <p>Stateless.
 */
final class DdlPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(DdlPlanner.class);

    private DdlPlanner() {}

    static void plan(DdlStatement statement, Workspace ws) {
        if (statement instanceof DdlStatement.CreateTable s) {
            createTable(s, ws);
        } else if (statement instanceof DdlStatement.CreateTableLike s) {
            createTableLike(s, ws);
        } else if (statement instanceof DdlStatement.CreateSequence s) {
            createSequence(s, ws);
        } else if (statement instanceof DdlStatement.AlterTable s) {
            alterTable(s, ws);
        } else if (statement instanceof DdlStatement.RenameTables s) {
            renameTables(s, ws);
        } else if (statement instanceof DdlStatement.DropTables s) {
            for (TableName name : s.names()) {
                if (ws.table(name).isPresent()) {
                    ws.drop(name);
                } else if (!s.ifExists() && !isSystem(name)) {
                    LOG.warn("dropped table was not tracked, nothing to forget: table={}", name);
                }
            }
        } else if (statement instanceof DdlStatement.TruncateTable s) {
            if (ws.table(s.name()).isPresent()) {
                ws.truncate(s.name());
            }
        } else if (statement instanceof DdlStatement.CreateDatabase s) {
            createDatabase(s, ws);
        } else if (statement instanceof DdlStatement.AlterDatabase s) {
            alterDatabase(s, ws);
        } else if (statement instanceof DdlStatement.DropDatabase s) {
            if (ws.databaseCharset(s.name()).isPresent()) {
                ws.dropDatabase(s.name());
            }
        } else if (statement instanceof DdlStatement.CreateView s) {
            if (!isSystem(s.name())) {
                ws.putView(s.name());
            }
        } else if (statement instanceof DdlStatement.DropViews s) {
            s.names().forEach(ws::dropView);
        } else if (!(statement instanceof DdlStatement.Ignored)) {
            throw new IllegalStateException("unplanned statement: " + statement);
        }
    }

    private static void createTable(DdlStatement.CreateTable s, Workspace ws) {
        if (isSystem(s.name()) || skipExisting(s.name(), s.orReplace(), s.ifNotExists(), ws)) {
            return;
        }
        String databaseCharset = databaseCharset(s.name(), ws);
        String charset = tableCharset(s.charset(), s.collation(), databaseCharset, ws.dialect());
        List<Column> columns = new ArrayList<>();
        List<String> key = s.primaryKey() == null ? List.of() : s.primaryKey();
        for (ColumnDefinition definition : s.columns()) {
            columns.add(ColumnResolver.column(definition, charset, ws.dialect()));
            if (definition.primaryKey()) {
                key = List.of(definition.name());
            }
        }
        ws.create(ColumnResolver.withKey(s.name(), columns, key, charset));
    }

    private static void createTableLike(DdlStatement.CreateTableLike s, Workspace ws) {
        if (isSystem(s.name()) || skipExisting(s.name(), s.orReplace(), s.ifNotExists(), ws)) {
            return;
        }
        databaseCharset(s.name(), ws);
        TableDefinition source =
                ws.table(s.source())
                        .orElseThrow(
                                () ->
                                        new UnsupportedDdlException(
                                                "CREATE TABLE LIKE an untracked table: source="
                                                        + s.source(),
                                                List.of(s.name(), s.source())));
        ws.create(source.renamed(s.name()));
    }

    /** A MariaDB sequence is a one-row table of fixed columns, all NOT NULL. */
    private static void createSequence(DdlStatement.CreateSequence s, Workspace ws) {
        if (isSystem(s.name()) || skipExisting(s.name(), s.orReplace(), s.ifNotExists(), ws)) {
            return;
        }
        String charset = databaseCharset(s.name(), ws);
        List<Column> columns =
                List.of(
                        sequenceColumn("next_not_cached_value", "bigint(21)"),
                        sequenceColumn("minimum_value", "bigint(21)"),
                        sequenceColumn("maximum_value", "bigint(21)"),
                        sequenceColumn("start_value", "bigint(21)"),
                        sequenceColumn("increment", "bigint(21)"),
                        sequenceColumn("cache_size", "bigint(21) unsigned"),
                        sequenceColumn("cycle_option", "tinyint(1) unsigned"),
                        sequenceColumn("cycle_count", "bigint(21)"));
        ws.create(
                new TableDefinition(
                        s.name().database(), s.name().table(), columns, List.of(), charset));
    }

    private static Column sequenceColumn(String name, String type) {
        return MySqlColumnTypes.column(name, type, null, false);
    }

    private static void alterTable(DdlStatement.AlterTable s, Workspace ws) {
        if (isSystem(s.name())) {
            return;
        }
        TableDefinition table = ws.table(s.name()).orElse(null);
        if (table == null) {
            if (s.ifExists()) {
                return;
            }
            throw new UnsupportedDdlException(
                    "ALTER TABLE of an untracked table: table=" + s.name(), List.of(s.name()));
        }
        String databaseCharset = databaseCharset(s.name(), ws);
        TableDefinition altered =
                TableAlteration.apply(table, s.specs(), databaseCharset, ws.dialect());
        ws.alter(altered.renamed(s.name()));
        if (!altered.name().equals(s.name())) {
            checkTarget(s.name(), altered.name(), ws);
            ws.rename(s.name(), altered.name());
        }
    }

    private static void renameTables(DdlStatement.RenameTables s, Workspace ws) {
        for (DdlStatement.Rename rename : s.renames()) {
            if (isSystem(rename.from()) && isSystem(rename.to())) {
                continue;
            }
            if (isSystem(rename.from()) || isSystem(rename.to())) {
                checkTarget(rename.from(), rename.to(), ws);
            }
            if (ws.hasView(rename.from())) {
                ws.dropView(rename.from());
                ws.putView(rename.to());
                continue;
            }
            if (ws.table(rename.from()).isEmpty()) {
                if (s.ifExists()) {
                    continue;
                }
                throw new UnsupportedDdlException(
                        "RENAME of an untracked table: table=" + rename.from(),
                        List.of(rename.from(), rename.to()));
            }
            checkTarget(rename.from(), rename.to(), ws);
            ws.rename(rename.from(), rename.to());
        }
    }

    private static void createDatabase(DdlStatement.CreateDatabase s, Workspace ws) {
        if (TableFilter.isSystemDatabase(s.name())) {
            return;
        }
        if (ws.databaseCharset(s.name()).isPresent()) {
            if (s.ifNotExists()) {
                return;
            }
            ws.dropDatabase(s.name());
        }
        String charset =
                s.charset() == null && s.collation() == null
                        ? ws.dialect().serverCharset()
                        : tableCharset(
                                s.charset(),
                                s.collation(),
                                ws.dialect().serverCharset(),
                                ws.dialect());
        ws.putDatabase(new DatabaseDefinition(s.name(), charset));
    }

    private static void alterDatabase(DdlStatement.AlterDatabase s, Workspace ws) {
        if (TableFilter.isSystemDatabase(s.name())
                || (s.charset() == null && s.collation() == null)) {
            return;
        }
        String current =
                ws.databaseCharset(s.name())
                        .orElseThrow(
                                () ->
                                        new UnsupportedDdlException(
                                                "ALTER DATABASE of an untracked database: database="
                                                        + s.name()));
        String charset =
                s.charset() != null
                        ? tableCharset(
                                s.charset(), null, ws.dialect().serverCharset(), ws.dialect())
                        : ws.dialect().charsetOfCollation(s.collation()).orElse(current);
        ws.putDatabase(new DatabaseDefinition(s.name(), charset));
    }

    /**
     * The default character set declared by name ({@code default} meaning {@code inherited}), or by
     * collation, else {@code inherited}.
     */
    private static String tableCharset(
            String charset, String collation, String inherited, ServerDialect dialect) {
        if (charset != null) {
            return charset.equalsIgnoreCase("default") ? inherited : dialect.charset(charset);
        }
        if (collation != null) {
            return dialect.charsetOfCollation(collation).orElse(inherited);
        }
        return inherited;
    }

    /** Whether CREATE leaves an existing table alone (IF NOT EXISTS). */
    private static boolean skipExisting(
            TableName name, boolean orReplace, boolean ifNotExists, Workspace ws) {
        boolean exists = ws.table(name).isPresent() || ws.hasView(name);
        if (exists && !orReplace && !ifNotExists) {
            LOG.warn("table created over a tracked one, replacing it: table={}", name);
        }
        return exists && ifNotExists;
    }

    private static String databaseCharset(TableName name, Workspace ws) {
        return ws.databaseCharset(name.database())
                .orElseThrow(
                        () ->
                                new UnsupportedDdlException(
                                        "table in an untracked database: table=" + name,
                                        List.of(name)));
    }

    private static void checkTarget(TableName from, TableName to, Workspace ws) {
        if (isSystem(to) || isSystem(from)) {
            throw new UnsupportedDdlException(
                    "table renamed into or out of a system database: from=" + from + ", to=" + to,
                    List.of(from, to));
        }
        databaseCharset(to, ws);
    }

    private static boolean isSystem(TableName name) {
        return TableFilter.isSystemDatabase(name.database());
    }
}
