package io.changegrid.events.frame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked reader over a region of a little-endian {@link ByteBuffer}, used to decode row
 * images. Reading past the region's end throws {@link CorruptFrameException} naming the offset, so
 * a damaged image can never be read as values from the next frame.
 *
 * <p>A flyweight: {@link #wrap} it over a new region instead of allocating another. Not
 * thread-safe.
 */
public final class ByteCursor {

    private ByteBuffer buffer;
    private int position;
    private int limit;

    /** Points this cursor at {@code [offset, offset + length)} of {@code buffer}. */
    public ByteCursor wrap(ByteBuffer buffer, int offset, int length) {
        if (buffer.order() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalArgumentException("frames are little-endian: order=" + buffer.order());
        }
        if (offset < 0 || length < 0 || offset + length > buffer.capacity()) {
            throw new CorruptFrameException(
                    "region outside buffer: offset="
                            + offset
                            + ", length="
                            + length
                            + ", capacity="
                            + buffer.capacity());
        }
        this.buffer = buffer;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    public int position() {
        return position;
    }

    public int remaining() {
        return limit - position;
    }

    public byte readByte() {
        require(1);
        return buffer.get(position++);
    }

    public int readInt() {
        require(4);
        int value = buffer.getInt(position);
        position += 4;
        return value;
    }

    public long readLong() {
        require(8);
        long value = buffer.getLong(position);
        position += 8;
        return value;
    }

    /** Reads an unsigned LEB128 varint of at most 10 bytes. */
    public long readVarLong() {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            require(1);
            byte b = buffer.get(position++);
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new CorruptFrameException("varint longer than 10 bytes: offset=" + (position - 10));
    }

    /** Reads a zig-zag encoded signed varint. */
    public long readZigZagLong() {
        long raw = readVarLong();
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** Reads a varint that must be a length in {@code [0, remaining()]}. */
    public int readLength() {
        int at = position;
        long length = readVarLong();
        if (length < 0 || length > remaining()) {
            throw new CorruptFrameException(
                    "length past end of image: offset="
                            + at
                            + ", length="
                            + length
                            + ", remaining="
                            + remaining());
        }
        return (int) length;
    }

    public byte[] readBytes(int length) {
        require(length);
        byte[] bytes = new byte[length];
        buffer.get(position, bytes);
        position += length;
        return bytes;
    }

    /** Reads a varint length and that many UTF-8 bytes as a string. */
    public String readUtf8() {
        int length = readLength();
        String text;
        if (buffer.hasArray()) {
            text =
                    new String(
                            buffer.array(),
                            buffer.arrayOffset() + position,
                            length,
                            StandardCharsets.UTF_8);
        } else {
            byte[] bytes = new byte[length];
            buffer.get(position, bytes);
            text = new String(bytes, StandardCharsets.UTF_8);
        }
        position += length;
        return text;
    }

    /** Skips {@code length} bytes. */
    public void skip(int length) {
        require(length);
        position += length;
    }

    private void require(int bytes) {
        if (bytes < 0 || position + bytes > limit) {
            throw new CorruptFrameException(
                    "truncated image: offset="
                            + position
                            + ", needed="
                            + bytes
                            + ", remaining="
                            + (limit - position));
        }
    }
}
