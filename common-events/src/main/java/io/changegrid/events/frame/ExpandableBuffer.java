package io.changegrid.events.frame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An append-only little-endian byte buffer on the heap that grows by doubling. Frames are built in
 * one of these (a whole transaction at a time) and then copied once into their destination.
 *
 * <p>Not thread-safe: one encoder owns it.
 */
public final class ExpandableBuffer {

    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    private byte[] array;
    private ByteBuffer view;
    private int position;

    public ExpandableBuffer(int initialCapacity) {
        array = new byte[Math.max(64, initialCapacity)];
        view = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The number of bytes written. */
    public int position() {
        return position;
    }

    /** Moves the write position back, e.g. to drop a frame that failed half-way. */
    public void position(int newPosition) {
        if (newPosition < 0 || newPosition > position) {
            throw new IllegalArgumentException(
                    "position out of range: position=" + newPosition + ", written=" + position);
        }
        position = newPosition;
    }

    /** Forgets everything written, keeping the memory. */
    public void clear() {
        position = 0;
    }

    /**
     * A little-endian view of the whole backing array. Valid until the next write that grows the
     * buffer; bytes past {@link #position()} are undefined.
     */
    public ByteBuffer byteBuffer() {
        return view;
    }

    /** Makes room for {@code bytes} more bytes. */
    public void reserve(int bytes) {
        long needed = (long) position + bytes;
        if (needed > array.length) {
            grow(needed);
        }
    }

    public void putByte(int value) {
        reserve(1);
        array[position++] = (byte) value;
    }

    public void putShort(int value) {
        reserve(2);
        view.putShort(position, (short) value);
        position += 2;
    }

    public void putInt(int value) {
        reserve(4);
        view.putInt(position, value);
        position += 4;
    }

    public void putLong(long value) {
        reserve(8);
        view.putLong(position, value);
        position += 8;
    }

    /** Overwrites an int at an absolute index already written, e.g. a length known only later. */
    public void putIntAt(int index, int value) {
        view.putInt(index, value);
    }

    /** Overwrites a short at an absolute index already written. */
    public void putShortAt(int index, int value) {
        view.putShort(index, (short) value);
    }

    public void putBytes(byte[] source, int offset, int length) {
        reserve(length);
        System.arraycopy(source, offset, array, position, length);
        position += length;
    }

    /** Writes {@code count} zero bytes. */
    public void putZeros(int count) {
        reserve(count);
        Arrays.fill(array, position, position + count, (byte) 0);
        position += count;
    }

    /** Sets bits in a byte already written, e.g. a NULL bitmap filled in column by column. */
    public void orByteAt(int index, int bits) {
        if (index < 0 || index >= position) {
            throw new IndexOutOfBoundsException("index=" + index + ", written=" + position);
        }
        array[index] |= (byte) bits;
    }

    /** Writes {@code value} as an unsigned LEB128 varint (1..10 bytes). */
    public void putVarLong(long value) {
        reserve(10);
        while ((value & ~0x7FL) != 0) {
            array[position++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        array[position++] = (byte) value;
    }

    /** Writes a signed value zig-zag encoded, so small negative numbers stay short. */
    public void putZigZagLong(long value) {
        putVarLong((value << 1) ^ (value >> 63));
    }

    /**
     * Writes a string as a varint length followed by its UTF-8 bytes, without an intermediate array
     * for strings of ASCII characters (the common case for keys and most text).
     */
    public void putUtf8(String text) {
        int length = text.length();
        reserve(5 + length);
        int lengthAt = position;
        // Optimistically assume ASCII: one byte per char, length prefix of known size.
        int prefix = varIntSize(length);
        int at = position + prefix;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                position = lengthAt;
                putVarLong(utf8.length);
                putBytes(utf8, 0, utf8.length);
                return;
            }
            array[at + i] = (byte) c;
        }
        putVarLong(length);
        position = at + length;
    }

    /** The number of bytes {@link #putVarLong(long)} writes for a non-negative int. */
    static int varIntSize(int value) {
        return value < (1 << 7)
                ? 1
                : value < (1 << 14) ? 2 : value < (1 << 21) ? 3 : value < (1 << 28) ? 4 : 5;
    }

    /** A copy of the bytes written, for tests and tools. */
    public byte[] toByteArray() {
        return Arrays.copyOf(array, position);
    }

    private void grow(long needed) {
        if (needed > MAX_CAPACITY) {
            throw new IllegalStateException(
                    "buffer cannot grow past " + MAX_CAPACITY + " bytes: needed=" + needed);
        }
        long doubled = Math.max(needed, (long) array.length * 2);
        array = Arrays.copyOf(array, (int) Math.min(doubled, MAX_CAPACITY));
        view = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
    }
}
