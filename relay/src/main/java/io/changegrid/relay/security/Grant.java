package io.changegrid.relay.security;

import io.changegrid.events.frame.FrameProjection;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.Policy;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.select.TablePattern;
import io.changegrid.protocol.TableGlob;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one principal may do, from its entry in the access file ({@link AccessRules}): the tables it
 * may stream ({@code database.table} globs, {@link TableGlob}), per table the only columns it may
 * see (a projection), the tables whose schemas it may read, and whether it holds the operations
 * role ({@code /v1/status}, {@code /metrics}).
 *
 * <p>A subscription is judged once per request ({@link #refusal}), never per event; the per-table
 * decisions a stream then needs ({@link #mayStream}, {@link #projection}) are cached here per
 * schema version, so every request of the principal shares them.
 *
 * <p>Immutable but for its thread-safe cache; a changed access file makes new grants.
 *
 * @param principal the principal's name
 * @param tables what it may stream; empty for nothing
 * @param columns per table glob, first match wins, the only columns it may see
 * @param schemas whose schemas it may read
 * @param operations whether it may read {@code /v1/status} and {@code /metrics} and pause or resume
 *     snapshot reads
 */
public record Grant(
        String principal,
        List<TableGlob> tables,
        Map<TableGlob, Set<String>> columns,
        List<TableGlob> schemas,
        boolean operations,
        Map<Long, Optional<FrameProjection>> projections) {

    private static final TableGlob EVERY_TABLE = TableGlob.parse("*.*");

    public Grant {
        tables = List.copyOf(tables);
        columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        schemas = List.copyOf(schemas);
    }

    /** A grant of the given rules. */
    public static Grant of(
            String principal,
            List<TableGlob> tables,
            Map<TableGlob, Set<String>> columns,
            List<TableGlob> schemas,
            boolean operations) {
        return new Grant(
                principal, tables, columns, schemas, operations, new ConcurrentHashMap<>());
    }

    /** Everything: what every principal gets when no access file is configured. */
    public static Grant all(String principal) {
        return of(principal, List.of(EVERY_TABLE), Map.of(), List.of(EVERY_TABLE), true);
    }

    /** Nothing: an authenticated principal the access file does not name. */
    public static Grant nothing(String principal) {
        return of(principal, List.of(), Map.of(), List.of(), false);
    }

    /** Whether every table, column and schema is granted, so streams need no checks at all. */
    public boolean isEverything() {
        return tables.contains(EVERY_TABLE) && columns.isEmpty();
    }

    /** Whether the table's rows may be streamed to this principal. */
    public boolean mayStream(String database, String table) {
        for (TableGlob glob : tables) {
            if (glob.matches(database, table)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the table's schema may be read (and then only its granted columns). */
    public boolean maySeeSchema(String database, String table) {
        for (TableGlob glob : schemas) {
            if (glob.matches(database, table)) {
                return true;
            }
        }
        return mayStream(database, table);
    }

    /**
     * The projection a table version's rows are sent with, or empty when every column is granted. A
     * table none of whose columns is granted is not streamed ({@link #mayStreamVersion}).
     */
    public Optional<FrameProjection> projection(TableSchema schema) {
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        long key = ((long) schema.tableId() << 32) | schema.version();
        return projections.computeIfAbsent(key, k -> bind(schema));
    }

    /** Whether rows of this table version may be streamed: granted, and some column visible. */
    public boolean mayStreamVersion(TableSchema schema) {
        if (!mayStream(schema.database(), schema.table())) {
            return false;
        }
        Set<String> allowed = allowedColumns(schema.database(), schema.table());
        return allowed == null
                || schema.columns().stream().anyMatch(c -> allowed.contains(c.name()));
    }

    /**
     * The schema as this principal sees it, only its granted columns; null when it may not see the
     * table, or none of its columns.
     */
    public TableSchema visible(TableSchema schema) {
        if (!mayStreamVersion(schema) && !maySeeSchema(schema.database(), schema.table())) {
            return null;
        }
        Set<String> allowed = allowedColumns(schema.database(), schema.table());
        if (allowed != null
                && schema.columns().stream().noneMatch(c -> allowed.contains(c.name()))) {
            return null;
        }
        return projection(schema).map(FrameProjection::projected).orElse(schema);
    }

    /**
     * Why a subscription is refused, or null when it is allowed. Refused, naming what: a table the
     * subscription names exactly (no {@code *}) that is not granted; a row predicate or partitioner
     * reading a column that is not granted (its value would leak through what is selected). A
     * pattern with {@code *} is narrowed instead: it receives the granted tables it matches.
     *
     * @param served the tables the relay serves, latest versions
     */
    public String refusal(CapturePlan plan, Collection<TableSchema> served) {
        if (isEverything() || plan.isEverything()) {
            return null; // everything asked is narrowed to what is granted
        }
        Set<String> forbidden = new LinkedHashSet<>();
        for (Policy policy : plan.policies().map(p -> p.policies()).orElse(List.of())) {
            for (TablePattern pattern : policy.include()) {
                TableGlob glob = pattern.glob();
                if (!pattern.text().contains("*") && !mayStream(glob.database(), glob.table())) {
                    forbidden.add(pattern.text());
                }
            }
        }
        if (!forbidden.isEmpty()) {
            return "tables not granted: principal="
                    + principal
                    + ", tables="
                    + String.join(",", forbidden);
        }
        if (columns.isEmpty()) {
            return null;
        }
        List<TableSchema> visible = new ArrayList<>();
        for (TableSchema schema : served) {
            if (mayStreamVersion(schema)) {
                visible.add(projection(schema).map(FrameProjection::projected).orElse(schema));
            }
        }
        List<String> problems =
                plan.validate(visible).stream().filter(p -> p.contains("column")).toList();
        return problems.isEmpty()
                ? null
                : "subscription reads columns not granted: principal="
                        + principal
                        + ", problems="
                        + String.join("; ", problems);
    }

    private Optional<FrameProjection> bind(TableSchema schema) {
        Set<String> allowed = allowedColumns(schema.database(), schema.table());
        if (allowed == null) {
            return Optional.empty();
        }
        FrameProjection projection = FrameProjection.of(schema, allowed);
        return projection == null || projection.isIdentity()
                ? Optional.empty()
                : Optional.of(projection);
    }

    /** The only columns granted of a table, or null for all. */
    private Set<String> allowedColumns(String database, String table) {
        for (Map.Entry<TableGlob, Set<String>> entry : columns.entrySet()) {
            if (entry.getKey().matches(database, table)) {
                return entry.getValue();
            }
        }
        return null;
    }
}
