package io.changegrid.fetchers.logminer.schema;

import io.changegrid.events.schema.Column;

/** A column of a captured table as {@code ALL_TAB_COLUMNS} has it, with how it is carried. */
public record OracleColumn(String name, OracleType type, boolean nullable) {

    /** The event schema's column. */
    public Column column() {
        return new Column(name, type.kind().valueType(), type.declared(), nullable, 0);
    }
}
