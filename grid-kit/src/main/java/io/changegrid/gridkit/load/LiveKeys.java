package io.changegrid.gridkit.load;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The ids of one table's rows that exist, so updates and deletes hit real rows: an array with
 * swap-remove, O(1) to add, pick and remove. Picks lean towards recently inserted rows, as recent
 * orders change more often than old ones.
 *
 * <p>Not thread-safe: the generator thread owns it.
 */
final class LiveKeys {

    private long[] ids = new long[1024];
    private int size;
    private long nextId = 1;

    /**
     * Live keys of rows a table already holds: picks may hit any of them, and new ids start above
     * the largest.
     */
    static LiveKeys existing(long[] held) {
        LiveKeys keys = new LiveKeys();
        keys.ids = Arrays.copyOf(held, Math.max(1024, held.length * 2));
        keys.size = held.length;
        for (long id : held) {
            keys.nextId = Math.max(keys.nextId, id + 1);
        }
        return keys;
    }

    /** A new id, now live. */
    long insert() {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, size * 2);
        }
        ids[size++] = nextId;
        return nextId++;
    }

    int size() {
        return size;
    }

    /** The position of a live row, leaning to the newest; the caller checks {@link #size()}. */
    int pick(SplittableRandom random) {
        double u = random.nextDouble();
        return size - 1 - (int) (size * u * u);
    }

    long idAt(int position) {
        return ids[position];
    }

    /** Removes the row at {@code position}; the last row takes its place. */
    long removeAt(int position) {
        long id = ids[position];
        ids[position] = ids[--size];
        return id;
    }
}
