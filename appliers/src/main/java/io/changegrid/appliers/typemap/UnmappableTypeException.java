package io.changegrid.appliers.typemap;

import java.util.List;

/**
 * A table has columns whose type the target cannot hold without loss. Raised before any row of the
 * table is written; the message names every such column.
 */
public final class UnmappableTypeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnmappableTypeException(String target, String table, List<String> problems) {
        super(
                "column types without a lossless "
                        + target
                        + " form: table="
                        + table
                        + ", "
                        + String.join("; ", problems));
    }
}
