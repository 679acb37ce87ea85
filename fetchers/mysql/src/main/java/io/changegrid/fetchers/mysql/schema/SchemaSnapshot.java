package io.changegrid.fetchers.mysql.schema;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Every database, table and view of a server at one moment, without registry ids: what {@link
 * InformationSchemaReader} reads, what {@link SchemaTracker#fromSnapshot} starts from, and what
 * {@link SchemaTracker#snapshot()} gives back for comparison. Lists are sorted by name, so two
 * snapshots of the same state are equal.
 *
 * @param dialect the server's settings that decide how DDL becomes columns
 * @param databases the non-system databases
 * @param tables their tables (sequences included)
 * @param views their views
 */
public record SchemaSnapshot(
        ServerDialect dialect,
        List<DatabaseDefinition> databases,
        List<TableDefinition> tables,
        List<TableName> views) {

    private static final Comparator<TableName> BY_NAME =
            Comparator.comparing(TableName::database).thenComparing(TableName::table);

    public SchemaSnapshot {
        Objects.requireNonNull(dialect, "dialect");
        databases =
                databases.stream().sorted(Comparator.comparing(DatabaseDefinition::name)).toList();
        tables =
                tables.stream()
                        .sorted(Comparator.comparing(TableDefinition::name, BY_NAME))
                        .toList();
        views = views.stream().sorted(BY_NAME).toList();
    }
}
