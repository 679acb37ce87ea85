package io.changegrid.fetchers.logminer.assembly;

import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.logminer.schema.OracleColumn;
import io.changegrid.policy.capture.TableRoute;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A captured table's schema version as rows are read with it: the Oracle columns (for typing
 * values), their positions by name, and the route the policy engine gave the version.
 */
public final class TableBinding {

    private final TableSchema schema;
    private final OracleColumn[] columns;
    private final Map<String, Integer> positions;
    private final TableRoute route;

    public TableBinding(TableSchema schema, List<OracleColumn> columns, TableRoute route) {
        this.schema = schema;
        this.columns = columns.toArray(new OracleColumn[0]);
        this.positions = new HashMap<>(columns.size() * 2);
        for (int i = 0; i < this.columns.length; i++) {
            positions.put(this.columns[i].name(), i);
        }
        this.route = route;
    }

    public TableSchema schema() {
        return schema;
    }

    /** The route, or null when the policies publish nothing of the table. */
    public TableRoute route() {
        return route;
    }

    int width() {
        return columns.length;
    }

    OracleColumn column(int position) {
        return columns[position];
    }

    /** A column's position, or -1 when the table has no such column. */
    int position(String name) {
        Integer position = positions.get(name);
        return position == null ? -1 : position;
    }
}
