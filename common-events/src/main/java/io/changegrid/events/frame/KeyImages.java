package io.changegrid.events.frame;

import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Key images outside frames: a snapshot cursor carries the last key read as a key image of the
 * source table (docs/bootstrap.md), in the frame format's own encoding, so any relay of the source
 * reads it back into typed key values.
 */
public final class KeyImages {

    private KeyImages() {}

    /** The key image of {@code row} (one value per column of {@code schema}). */
    public static byte[] ofRow(TableSchema schema, Object[] row) {
        ExpandableBuffer out = new ExpandableBuffer(64);
        RowImageCodec.writeKey(out, schema, row);
        return Arrays.copyOf(out.byteBuffer().array(), out.position());
    }

    /**
     * The key values, in key order, of a key image of {@code schema}.
     *
     * @throws CorruptFrameException if the image does not fit the schema's key
     */
    public static Object[] read(TableSchema schema, byte[] image) {
        ByteCursor cursor = new ByteCursor();
        cursor.wrap(ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN), 0, image.length);
        Object[] key = RowImageCodec.readKey(cursor, schema);
        if (cursor.remaining() != 0) {
            throw new CorruptFrameException(
                    "key image longer than its key: table="
                            + schema.qualifiedName()
                            + ", extra="
                            + cursor.remaining());
        }
        return key;
    }
}
