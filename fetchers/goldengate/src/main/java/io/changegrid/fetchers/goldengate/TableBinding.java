package io.changegrid.fetchers.goldengate;

import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.capture.TableRoute;

/**
 * A captured table as the fetcher reads its records: the schema version its images are read with,
 * the route its rows take ({@code null}: this relay publishes none of them), and the image arrays
 * reused from one record to the next (the frame encoder copies the values out).
 */
final class TableBinding {

    /** A table this relay does not capture: its records are checked for shape and skipped. */
    static final TableBinding UNCAPTURED = new TableBinding(null, null);

    final TableSchema schema;
    final TableRoute route;
    final Object[] before;
    final Object[] after;
    final boolean[] beforePresent;
    final boolean[] afterPresent;
    final boolean[] beforeMissing;
    final boolean[] afterMissing;
    boolean published;

    TableBinding(TableSchema schema, TableRoute route) {
        this.schema = schema;
        this.route = route;
        int width = schema == null ? 0 : schema.columnCount();
        before = new Object[width];
        after = new Object[width];
        beforePresent = new boolean[width];
        afterPresent = new boolean[width];
        beforeMissing = new boolean[width];
        afterMissing = new boolean[width];
    }

    boolean captured() {
        return schema != null;
    }
}
