package io.changegrid.fetchers.mysql;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.mysql.schema.DdlOutcome;
import io.changegrid.fetchers.mysql.schema.SchemaHistory;
import io.changegrid.fetchers.mysql.schema.SchemaSnapshot;
import io.changegrid.fetchers.mysql.schema.SchemaTracker;
import io.changegrid.fetchers.mysql.schema.TableName;
import io.changegrid.policy.capture.TableFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the DDL found in the binlog to the schema tracker, persists what changed in the schema
 * history (so a restart at an older position decodes rows with the schema current then), and tells
 * the assembler which captured tables need a SCHEMA_CHANGE event.
 *
 * <p>DDL the tracker cannot understand never yields a guessed schema: on a captured table it stops
 * the fetcher with the statement and its {@link DdlDigest} named, unless the operator listed that
 * digest in {@code source.ddlSkip} (or {@code relay recover-schema} recorded it): then the tables
 * it names (all captured tables when it names none it could read) take their schemas from the
 * source's information_schema, recorded and published at the statement's position as if the
 * statement had been understood. On a table outside the capture it marks that table's schema
 * unknown, so that a later rename into the capture stops the fetcher instead of decoding rows
 * wrongly.
 *
 * <p>Threading: the fetcher thread only.
 */
final class DdlApplier {

    private static final Logger LOG = LoggerFactory.getLogger(DdlApplier.class);

    private final SchemaTracker tracker;
    private final SchemaHistory history;
    private final TableFilter capture;
    private final Set<String> skipDigests;
    private final Supplier<SchemaSnapshot> source;
    private final Map<TableName, String> unknown = new HashMap<>();

    /**
     * @param skipDigests the digests of statements to skip ({@code source.ddlSkip})
     * @param source reads the source's schemas now, for a skipped statement's tables
     */
    DdlApplier(
            SchemaTracker tracker,
            SchemaHistory history,
            TableFilter capture,
            Set<String> skipDigests,
            Supplier<SchemaSnapshot> source) {
        this.tracker = tracker;
        this.history = history;
        this.capture = capture;
        this.skipDigests = Set.copyOf(skipDigests);
        this.source = source;
    }

    /** Every schema version of the source's captured tables. */
    SchemaRegistry registry() {
        return tracker.registry();
    }

    /**
     * The current schema of a table.
     *
     * @throws FetchFailedException if DDL the tracker could not understand left it unknown
     */
    Optional<TableSchema> schema(String database, String table) {
        String statement = unknown.get(new TableName(database, table));
        if (statement != null) {
            throw new FetchFailedException(
                    "schema unknown since a statement the tracker could not understand:"
                            + " table="
                            + database
                            + "."
                            + table
                            + ", statement="
                            + statement);
        }
        return tracker.table(database, table);
    }

    /**
     * Applies one statement of the transaction starting at {@code at}, whose SCN is {@code scn}
     * (the history is kept by SCN: on a GTID timeline that is not {@code at.scn()}).
     *
     * @param publish called with (new schema, statement) for each captured table it changed,
     *     dropped or truncated
     */
    void apply(
            BinlogPosition at,
            long scn,
            String defaultDatabase,
            String sql,
            BiConsumer<TableSchema, String> publish) {
        DdlOutcome outcome = tracker.apply(defaultDatabase, sql);
        // Java 17 has no pattern switch; DdlOutcome is sealed, so these three are all there is.
        if (outcome instanceof DdlOutcome.Applied applied) {
            persist(at, scn, sql, applied);
            for (TableSchema schema : applied.changed()) {
                unknown.remove(new TableName(schema.database(), schema.table()));
            }
            publishCaptured(applied.changed(), sql, publish);
            publishCaptured(applied.dropped(), sql, publish);
            publishCaptured(applied.truncated(), sql, publish);
        } else if (outcome instanceof DdlOutcome.Unsupported unsupported) {
            List<TableName> tables = unsupported.tables();
            boolean touchesCapture =
                    tables.isEmpty()
                            || tables.stream()
                                    .anyMatch(t -> capture.matches(t.database(), t.table()));
            if (touchesCapture) {
                String digest = DdlDigest.of(sql);
                if (!skipDigests.contains(digest)) {
                    throw new UnreadableDdlException(
                            "DDL on a captured table could not be understood: statement="
                                    + sql
                                    + ", tables="
                                    + (tables.isEmpty() ? "unknown" : tables)
                                    + ", position="
                                    + at
                                    + ", reason="
                                    + unsupported.reason()
                                    + ", digest="
                                    + digest
                                    + "; to skip it and read the tables' schemas from the source,"
                                    + " add the digest to source.ddlSkip or run relay recover-schema,"
                                    + " or exclude the table (capture.exclude); then restart the"
                                    + " relay",
                            digest);
                }
                skip(at, scn, sql, digest, tables, publish);
                return;
            }
            for (TableName table : tables) {
                unknown.put(table, sql);
            }
            LOG.warn(
                    "DDL not understood on tables outside the capture; their schemas are now unknown:"
                            + " tables={}, position={}, reason={}",
                    tables,
                    at,
                    unsupported.reason());
        }
    }

    /**
     * Passes a statement whose digest is to be skipped: its tables' schemas as the source has them
     * now. Right only while no later DDL on those tables has run on the source, which is why an
     * operator skips a statement while the relay is stopped at it.
     */
    private void skip(
            BinlogPosition at,
            long scn,
            String sql,
            String digest,
            List<TableName> tables,
            BiConsumer<TableSchema, String> publish) {
        Predicate<TableName> which =
                tables.isEmpty()
                        ? t -> capture.matches(t.database(), t.table())
                        : Set.copyOf(tables)::contains;
        DdlOutcome.Applied applied = tracker.reread(source.get(), which);
        persist(at, scn, sql, applied);
        for (TableSchema schema : applied.changed()) {
            unknown.remove(new TableName(schema.database(), schema.table()));
        }
        publishCaptured(applied.changed(), sql, publish);
        publishCaptured(applied.dropped(), sql, publish);
        LOG.warn(
                "DDL skipped by its digest (source.ddlSkip or recover-schema), schemas read from the"
                        + " source: digest={}, tables={},"
                        + " position={}, changed={}, dropped={}",
                digest,
                tables.isEmpty() ? "every captured table" : tables,
                at,
                applied.changed().size(),
                applied.dropped().size());
    }

    private void persist(BinlogPosition at, long scn, String sql, DdlOutcome.Applied applied) {
        try {
            history.append(scn, sql, applied);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "schema history could not be written: file="
                            + history.file()
                            + ", position="
                            + at,
                    e);
        }
    }

    private void publishCaptured(
            List<TableSchema> schemas, String sql, BiConsumer<TableSchema, String> publish) {
        for (TableSchema schema : schemas) {
            if (capture.matches(schema.database(), schema.table())) {
                publish.accept(schema, sql);
            }
        }
    }
}
