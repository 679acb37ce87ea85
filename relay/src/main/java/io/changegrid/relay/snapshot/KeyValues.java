package io.changegrid.relay.snapshot;

import io.changegrid.events.schema.TableSchema;
import java.util.Arrays;

/**
 * A row's primary key values in key order, compared by value (arrays too), as a set member: the
 * same key read from the source and decoded from a live frame are equal.
 */
record KeyValues(Object[] values) {

    /** The key of {@code row}, one value per column of {@code schema}. */
    static KeyValues of(TableSchema schema, Object[] row) {
        Object[] key = new Object[schema.keySize()];
        for (int k = 0; k < key.length; k++) {
            key[k] = row[schema.keyIndex(k)];
        }
        return new KeyValues(key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValues other && Arrays.deepEquals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
