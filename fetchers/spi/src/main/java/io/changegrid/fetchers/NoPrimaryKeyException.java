package io.changegrid.fetchers;

import io.changegrid.events.schema.TableSchema;

/**
 * A snapshot was asked of a table without a primary key: chunks are key ranges, so such a table is
 * refused, by name (docs/bootstrap.md says why and what to do).
 */
public final class NoPrimaryKeyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public NoPrimaryKeyException(TableSchema table) {
        super(
                "snapshot needs a primary key: table="
                        + table.qualifiedName()
                        + "; add one, or leave the table out of the snapshot's subscription");
    }

    /**
     * Refuses {@code table} when it has no key.
     *
     * @throws NoPrimaryKeyException naming it
     */
    public static void check(TableSchema table) {
        if (!table.hasKey()) {
            throw new NoPrimaryKeyException(table);
        }
    }
}
