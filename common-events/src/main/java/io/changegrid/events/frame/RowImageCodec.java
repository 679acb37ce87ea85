package io.changegrid.events.frame;

import io.changegrid.events.schema.TableSchema;

/**
 * The binary encoding of a row image (all columns of a row) and of a key image (the primary key
 * columns, in key order).
 *
 * <pre>
 * image := varint columnCount, null bitmap of ceil(columnCount / 8) bytes, value*
 * </pre>
 *
 * Bit {@code i} of the bitmap (byte {@code i / 8}, bit {@code i % 8}) is set when column {@code i}
 * is NULL; non-null values follow in column order, each as {@link ValueCodec} encodes it. The
 * column count lets a decoder notice an image that does not belong to the schema it was given.
 */
final class RowImageCodec {

    private RowImageCodec() {}

    /** Writes the row image of {@code values}, one per column of {@code schema}. */
    static void writeRow(ExpandableBuffer out, TableSchema schema, Object[] values) {
        int count = schema.columnCount();
        if (values.length != count) {
            throw new IllegalArgumentException(
                    "row does not fit schema: table="
                            + schema.qualifiedName()
                            + ", columns="
                            + count
                            + ", values="
                            + values.length);
        }
        writeBitmap(out, values, count, null);
        for (int i = 0; i < count; i++) {
            Object value = values[i];
            if (value != null) {
                ValueCodec.write(out, schema.column(i), value);
            } else if (!schema.column(i).nullable()) {
                throw new IllegalArgumentException(
                        "NULL in a NOT NULL column: table="
                                + schema.qualifiedName()
                                + ", column="
                                + schema.column(i).name());
            }
        }
    }

    /** Writes the key image of a row: the values of the key columns in key order. */
    static void writeKey(ExpandableBuffer out, TableSchema schema, Object[] row) {
        int count = schema.keySize();
        writeBitmap(out, row, count, schema);
        for (int k = 0; k < count; k++) {
            Object value = row[schema.keyIndex(k)];
            if (value != null) {
                ValueCodec.write(out, schema.column(schema.keyIndex(k)), value);
            }
        }
    }

    /**
     * Writes a row image ({@code key == false}) or the key image of the before or after image of
     * {@code images}, the values written by the source through {@code values}.
     */
    static void writeImage(
            ExpandableBuffer out,
            TableSchema schema,
            RowImages images,
            RowImageWriter values,
            boolean after,
            boolean key) {
        int count = key ? schema.keySize() : schema.columnCount();
        out.putVarLong(count);
        int bitmapAt = out.position();
        out.putZeros((count + 7) / 8);
        for (int i = 0; i < count; i++) {
            int column = key ? schema.keyIndex(i) : i;
            if (images.isNull(after, column)) {
                if (!key && !schema.column(column).nullable()) {
                    throw new IllegalArgumentException(
                            "NULL in a NOT NULL column: table="
                                    + schema.qualifiedName()
                                    + ", column="
                                    + schema.column(column).name());
                }
                out.orByteAt(bitmapAt + (i >>> 3), 1 << (i & 7));
            } else {
                int at = out.position();
                values.column(schema, column);
                images.write(values, after, column);
                if (out.position() == at) {
                    throw new IllegalStateException(
                            "no value written: table="
                                    + schema.qualifiedName()
                                    + ", column="
                                    + schema.column(column).name());
                }
            }
        }
    }

    private static void writeBitmap(
            ExpandableBuffer out, Object[] row, int count, TableSchema keyOf) {
        out.putVarLong(count);
        for (int base = 0; base < count; base += 8) {
            int bits = 0;
            for (int bit = 0; bit < 8 && base + bit < count; bit++) {
                int column = keyOf == null ? base + bit : keyOf.keyIndex(base + bit);
                if (row[column] == null) {
                    bits |= 1 << bit;
                }
            }
            out.putByte(bits);
        }
    }

    /**
     * Reads a whole row image that must fill the cursor's region exactly.
     *
     * @throws CorruptFrameException if the image does not match the schema or its region
     */
    static Object[] readRow(ByteCursor in, TableSchema schema) {
        int count = readCount(in, schema, schema.columnCount(), "row");
        Object[] values = new Object[count];
        readValues(in, schema, values, count, false);
        return values;
    }

    /** Reads a key image into the key values in key order. */
    static Object[] readKey(ByteCursor in, TableSchema schema) {
        int count = readCount(in, schema, schema.keySize(), "key");
        Object[] values = new Object[count];
        readValues(in, schema, values, count, true);
        return values;
    }

    private static void readValues(
            ByteCursor in, TableSchema schema, Object[] values, int count, boolean key) {
        int bitmapAt = in.position();
        byte[] bitmap = in.readBytes((count + 7) / 8);
        for (int i = 0; i < count; i++) {
            boolean isNull = (bitmap[i >>> 3] & (1 << (i & 7))) != 0;
            if (!isNull) {
                values[i] = ValueCodec.read(in, schema.column(key ? schema.keyIndex(i) : i));
            }
        }
        if (in.remaining() != 0) {
            throw new CorruptFrameException(
                    "bytes left after image: table="
                            + schema.qualifiedName()
                            + ", imageAt="
                            + bitmapAt
                            + ", left="
                            + in.remaining());
        }
    }

    private static int readCount(ByteCursor in, TableSchema schema, int expected, String what) {
        int at = in.position();
        long count = in.readVarLong();
        if (count != expected) {
            throw new CorruptFrameException(
                    what
                            + " image does not match schema: table="
                            + schema.qualifiedName()
                            + ", version="
                            + schema.version()
                            + ", expected="
                            + expected
                            + ", found="
                            + count
                            + ", offset="
                            + at);
        }
        return expected;
    }
}
