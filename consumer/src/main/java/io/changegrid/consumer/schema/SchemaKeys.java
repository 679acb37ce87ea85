package io.changegrid.consumer.schema;

/**
 * A set of (table id, schema version) pairs as primitive longs, so that checking every frame's
 * schema allocates nothing (a registry lookup would box its key). Open addressing, linear probing;
 * 0 marks an empty slot, which no key is because table ids start at 1.
 *
 * <p>Not thread-safe.
 */
final class SchemaKeys {

    private long[] slots = new long[64];
    private int size;

    static long key(int tableId, int version) {
        return ((long) tableId << 32) | (version & 0xFFFF_FFFFL);
    }

    boolean contains(long key) {
        int mask = slots.length - 1;
        for (int i = index(key, mask); ; i = (i + 1) & mask) {
            long slot = slots[i];
            if (slot == key) {
                return true;
            }
            if (slot == 0) {
                return false;
            }
        }
    }

    void add(long key) {
        if (key == 0) {
            throw new IllegalArgumentException("schema key must not be 0");
        }
        if ((size + 1) * 2 > slots.length) {
            grow();
        }
        if (insert(slots, key)) {
            size++;
        }
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] larger = new long[slots.length * 2];
        for (long key : slots) {
            if (key != 0) {
                insert(larger, key);
            }
        }
        slots = larger;
    }

    private static boolean insert(long[] table, long key) {
        int mask = table.length - 1;
        for (int i = index(key, mask); ; i = (i + 1) & mask) {
            if (table[i] == key) {
                return false;
            }
            if (table[i] == 0) {
                table[i] = key;
                return true;
            }
        }
    }

    private static int index(long key, int mask) {
        long mixed = key * 0x9E37_79B9_7F4A_7C15L;
        return (int) (mixed >>> 40) & mask;
    }
}
