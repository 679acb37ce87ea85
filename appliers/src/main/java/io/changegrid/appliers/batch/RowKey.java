package io.changegrid.appliers.batch;

import java.util.Arrays;

/**
 * A row's primary key values, compared by value (byte arrays by content), so changes of one row can
 * be found and coalesced. Its hash is the same in every JVM for the same values.
 */
public final class RowKey {

    private final Object[] values;
    private final int hash;

    public RowKey(Object[] values) {
        this.values = values;
        this.hash = Arrays.deepHashCode(values);
    }

    public Object[] values() {
        return values;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RowKey that
                && hash == that.hash
                && Arrays.deepEquals(values, that.values);
    }

    /** Value-based: {@link Arrays#deepHashCode}, stable across JVMs for event value types. */
    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
