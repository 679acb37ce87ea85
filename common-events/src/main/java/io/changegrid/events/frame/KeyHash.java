package io.changegrid.events.frame;

import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;

/**
 * The partition hash of an event's key: MurmurHash3 x86 32-bit with seed 0 over the bytes of the
 * key image. Fixed forever, because relays and consumers in different processes, versions and
 * languages must agree on which partition an event is in; test vectors in {@code KeyHashTest} pin
 * it to the reference implementation.
 */
public final class KeyHash {

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private KeyHash() {}

    /** MurmurHash3_x86_32 of {@code buffer[offset, offset + length)}, little-endian blocks. */
    public static int murmur3(ByteBuffer buffer, int offset, int length) {
        int hash = 0;
        int blocksEnd = offset + (length & ~3);
        for (int i = offset; i < blocksEnd; i += 4) {
            int k =
                    (buffer.get(i) & 0xFF)
                            | (buffer.get(i + 1) & 0xFF) << 8
                            | (buffer.get(i + 2) & 0xFF) << 16
                            | (buffer.get(i + 3) & 0xFF) << 24;
            hash ^= mixK(k);
            hash = Integer.rotateLeft(hash, 13) * 5 + 0xe6546b64;
        }
        int tail = length & 3;
        if (tail > 0) {
            int k = 0;
            if (tail == 3) {
                k ^= (buffer.get(blocksEnd + 2) & 0xFF) << 16;
            }
            if (tail >= 2) {
                k ^= (buffer.get(blocksEnd + 1) & 0xFF) << 8;
            }
            k ^= buffer.get(blocksEnd) & 0xFF;
            hash ^= mixK(k);
        }
        return fmix(hash ^ length);
    }

    /**
     * The hash of a table id (MurmurHash3 of its four little-endian bytes), used as the key hash of
     * tables without a primary key so that all their rows stay in one partition, in order.
     */
    public static int ofTableId(int tableId) {
        int hash = Integer.rotateLeft(mixK(tableId), 13) * 5 + 0xe6546b64;
        return fmix(hash ^ 4);
    }

    /**
     * The partition hash a frame of this row would carry, without encoding the frame: the key image
     * is written into {@code scratch} (cleared first) and hashed; a table without a key hashes its
     * id.
     *
     * @param row the after image, or the before image of a delete
     */
    public static int ofRow(TableSchema schema, Object[] row, ExpandableBuffer scratch) {
        if (!schema.hasKey()) {
            return ofTableId(schema.tableId());
        }
        scratch.clear();
        RowImageCodec.writeKey(scratch, schema, row);
        return murmur3(scratch.byteBuffer(), 0, scratch.position());
    }

    /** The partition in {@code [0, partitions)} of a hash. */
    public static int partition(int hash, int partitions) {
        return Math.floorMod(hash, partitions);
    }

    private static int mixK(int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        return k * C2;
    }

    private static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }
}
