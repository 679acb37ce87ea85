package io.changegrid.policy.capture;

import io.changegrid.events.frame.RowImages;

/**
 * A source row change a fetcher reads in place ({@link RowImages}) that can also give single
 * values: a route with policies asks only for the columns its predicate reads and its transform
 * computes, and has the others written straight from the source's bytes.
 *
 * <p>Column indexes are the source schema's.
 */
public interface SourceRow extends RowImages {

    /**
     * The value of column {@code column} of the before ({@code after == false}) or after image, in
     * the canonical type the object path gives it (text as the source's UTF-8 bytes where it gives
     * them so), or null for NULL.
     *
     * @throws IllegalArgumentException naming table and column if the value cannot be read
     */
    Object value(boolean after, int column);
}
