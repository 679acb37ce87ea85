package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableRoute;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the rows of each binlog table id take, decided from its latest table map: nothing (a table
 * not captured, or one no policy publishes), or its table version's route and the transcoder that
 * reads its rows in place. The {@link TransactionAssembler} asks for every rows event.
 *
 * <p>The server writes a table's map before the rows of every statement, and the maps repeat. The
 * deserializer hands the same object again for the same bytes ({@link
 * MariaDbTableMapDeserializer}), so a repeated table map costs one lookup here: the decision it
 * made stands until a schema change or a broken connection ({@link #forget()}).
 *
 * <p>Not thread-safe: the assembler's thread owns it.
 */
final class TableBindings {

    /** Table ids whose deciding table map is kept, at most: as many as the table-map cache. */
    private static final int MAX_DECIDED = 10_000;

    /**
     * A captured table version's converter and route (a null route publishes nothing), and the
     * transcoder that reads its rows in place.
     */
    static final class Route {
        final RowConverter converter;
        final TableRoute route;
        private TableMapEventData mapped;
        private RowTranscoder inPlace;

        Route(RowConverter converter, TableRoute route) {
            this.converter = converter;
            this.route = route;
        }

        /**
         * The transcoder reading rows under {@code map} in place, or null when the map has a type
         * whose size only the library knows. Kept while the table maps of the version carry the
         * same types and metadata.
         */
        RowTranscoder inPlace(TableMapEventData map, CellReader cells) {
            if (route == null) {
                return null;
            }
            if (mapped == null
                    || !Arrays.equals(mapped.getColumnTypes(), map.getColumnTypes())
                    || !Arrays.equals(mapped.getColumnMetadata(), map.getColumnMetadata())) {
                inPlace = RowTranscoder.of(converter, map, cells);
                mapped = map;
            }
            return inPlace;
        }
    }

    /** What the rows of one binlog table id take: its route and its table map's transcoder. */
    record Binding(Route route, RowTranscoder inPlace) {}

    private final CaptureRouter router;
    private final DdlApplier ddl;

    /** Reads the cells of columns not read in place, under the table maps seen here. */
    private final CellReader cells = LosslessRowDeserializers.cellReader();

    private final Map<Long, Binding> bound = new HashMap<>();

    /** Binlog table ids of tables whose rows are not published: their rows are not decoded. */
    private final Set<Long> unpublished = new HashSet<>();

    /**
     * The table map that decided each table id's entry in {@link #bound} or {@link #unpublished}.
     */
    private final Map<Long, TableMapEventData> decidedBy = new HashMap<>();

    /** Per table id and schema version. */
    private final Map<Long, Route> routesBySchema = new HashMap<>();

    TableBindings(CaptureRouter router, DdlApplier ddl) {
        this.router = router;
        this.ddl = ddl;
    }

    /**
     * Takes a table map: the rows that follow it under its table id take what it decides.
     *
     * @param file the binlog file the table map is in, and {@code offset} its place, for errors
     * @throws FetchFailedException if a captured table's map cannot be read under its schema
     */
    void tableMap(TableMapEventData map, String file, long offset) {
        Long tableId = map.getTableId();
        if (decidedBy.get(tableId) == map) {
            cells.tableMap(map); // kept the most recent in the cells' bounded cache
            return;
        }
        decide(map, new BinlogPosition(file, offset));
        if (decidedBy.size() >= MAX_DECIDED) {
            decidedBy.clear(); // table ids only grow: those of old tables are not asked again
        }
        decidedBy.put(tableId, map);
    }

    /** Whether the rows of a binlog table id are published by no route: they need not be read. */
    boolean unpublished(long binlogTableId) {
        return unpublished.contains(binlogTableId);
    }

    /** What the rows of a binlog table id take, or null when no table map for it was taken. */
    Binding binding(long binlogTableId) {
        return bound.get(binlogTableId);
    }

    /** Reads the cells of columns not read in place. */
    CellReader cells() {
        return cells;
    }

    /** After a schema change or a broken connection: every table id is decided again. */
    void forget() {
        bound.clear();
        unpublished.clear();
        decidedBy.clear();
    }

    private void decide(TableMapEventData map, BinlogPosition position) {
        String database = map.getDatabase();
        String table = map.getTable();
        if (!router.captures(database, table)) {
            bound.remove(map.getTableId());
            unpublished.add(map.getTableId());
            return;
        }
        TableSchema schema =
                ddl.schema(database, table)
                        .orElseThrow(
                                () ->
                                        new FetchFailedException(
                                                "captured table has no known schema: table="
                                                        + database
                                                        + "."
                                                        + table
                                                        + ", position="
                                                        + position
                                                        + "; its CREATE TABLE was not seen and it was not in the start snapshot"));
        int binlogColumns = map.getColumnTypes().length;
        if (binlogColumns != schema.columnCount()) {
            throw new FetchFailedException(
                    "tracked schema out of step with the binlog: table="
                            + schema.qualifiedName()
                            + ", schemaVersion="
                            + schema.version()
                            + ", schemaColumns="
                            + schema.columnCount()
                            + ", binlogColumns="
                            + binlogColumns
                            + ", position="
                            + position);
        }
        MariaDbTableMapDeserializer.requireDecodable(map, schema, position);
        long key = ((long) schema.tableId() << 32) | schema.version();
        Route route = routesBySchema.computeIfAbsent(key, k -> bindRoute(schema));
        if (route.route == null) {
            bound.remove(map.getTableId());
            unpublished.add(map.getTableId());
            return;
        }
        unpublished.remove(map.getTableId());
        cells.tableMap(map);
        bound.put(map.getTableId(), new Binding(route, route.inPlace(map, cells)));
    }

    private Route bindRoute(TableSchema schema) {
        TableRoute route = router.route(schema);
        return route == null ? new Route(null, null) : new Route(new RowConverter(schema), route);
    }
}
