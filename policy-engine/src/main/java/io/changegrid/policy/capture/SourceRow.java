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

    /**
     * Where the bytes that {@link #value} gives as a {@code byte[]} lie in {@link #valueBytes()},
     * for a caller that only reads them (hashes, compares) before the next row: no copy per value.
     * {@code offset << 32 | length}, or -1 where {@code value} gives anything else (NULL, a value
     * it decodes) or the source keeps no such bytes.
     */
    default long valueSpan(boolean after, int column) {
        return -1;
    }

    /** The array every {@link #valueSpan} of the current row points into. */
    default byte[] valueBytes() {
        throw new UnsupportedOperationException("this source row gives no value spans");
    }

    /** The offset in {@link #valueBytes()} of a {@link #valueSpan}. */
    static int spanOffset(long span) {
        return (int) (span >>> 32);
    }

    /** The length of a {@link #valueSpan}. */
    static int spanLength(long span) {
        return (int) span;
    }

    /** A {@link #valueSpan} of {@code length} bytes at {@code offset}. */
    static long span(int offset, int length) {
        return (long) offset << 32 | length & 0xFFFF_FFFFL;
    }
}
