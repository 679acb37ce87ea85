package io.changegrid.appliers.schema;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.ValueType;
import java.util.List;

/** The columns a versioned target table keeps about the change that last wrote each row. */
public final class VersionColumns {

    /** The writing source's id. */
    public static final String SOURCE = "_cg_source";

    /** The writing transaction's SCN on that source. */
    public static final String SCN = "_cg_scn";

    /** The writing transaction's commit time, microseconds since the epoch. */
    public static final String COMMIT_MICROS = "_cg_commit_us";

    /** The three columns, nullable: rows written by others have no version. */
    public static final List<Column> COLUMNS =
            List.of(
                    new Column(SOURCE, ValueType.INT64, "int", true, 0),
                    new Column(SCN, ValueType.INT64, "bigint", true, 0),
                    new Column(COMMIT_MICROS, ValueType.INT64, "bigint", true, 0));

    private VersionColumns() {}
}
