package io.changegrid.fetchers;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;

/** A column whose values a snapshot reader cannot read yet, named with its table and type. */
public final class UnsupportedSnapshotTypeException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public UnsupportedSnapshotTypeException(TableSchema table, Column column) {
        super(
                "snapshot cannot read this column type yet: table="
                        + table.qualifiedName()
                        + ", column="
                        + column.name()
                        + ", type="
                        + column.sourceType());
    }
}
