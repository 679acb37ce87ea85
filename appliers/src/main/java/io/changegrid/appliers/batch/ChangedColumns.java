package io.changegrid.appliers.batch;

import java.util.BitSet;
import java.util.Objects;

/**
 * Which columns an in-place update changed, from its full before and after images (the MySQL
 * fetcher requires {@code binlog_row_image=FULL}, so a column equal in both images did not change).
 * Byte arrays compare by content; a value that compares unequal but means the same (a decimal with
 * another scale) only makes the update write one column more.
 */
public final class ChangedColumns {

    private ChangedColumns() {}

    /** A new set of the indexes whose values differ; empty when the images are equal. */
    public static BitSet of(Object[] before, Object[] after) {
        BitSet changed = new BitSet(after.length);
        if (before.length != after.length) {
            changed.set(0, after.length); // not one table version: write everything
            return changed;
        }
        for (int i = 0; i < after.length; i++) {
            if (!Objects.deepEquals(before[i], after[i])) {
                changed.set(i);
            }
        }
        return changed;
    }
}
