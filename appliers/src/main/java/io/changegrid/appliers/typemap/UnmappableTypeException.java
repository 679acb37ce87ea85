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

    private UnmappableTypeException(String message) {
        super(message);
    }

    /** One exception naming every column of every table in {@code refusals}. */
    public static UnmappableTypeException of(List<UnmappableTypeException> refusals) {
        if (refusals.size() == 1) {
            return refusals.get(0);
        }
        StringBuilder message = new StringBuilder();
        for (UnmappableTypeException refusal : refusals) {
            message.append(message.length() == 0 ? "" : " | ").append(refusal.getMessage());
        }
        return new UnmappableTypeException(message.toString());
    }
}
