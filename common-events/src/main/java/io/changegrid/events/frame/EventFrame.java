package io.changegrid.events.frame;

import static io.changegrid.events.frame.FrameLayout.*;

import io.changegrid.events.Operation;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * A flyweight over one frame in a buffer: reads header fields in place, allocating nothing. {@link
 * #wrap} it over the next frame instead of creating another.
 *
 * <p>{@link #wrap} trusts the bytes (for frames this process wrote itself and already checked);
 * {@link #wrapChecked} runs {@link FrameLayout#checkFrame} first, for bytes from a file or the
 * network.
 *
 * <p>Not thread-safe; cheap enough that every reader thread has its own.
 */
public final class EventFrame {

    private ByteBuffer buffer;
    private int offset;

    /** Points at the frame at {@code offset} without checking it. */
    public EventFrame wrap(ByteBuffer buffer, int offset) {
        if (buffer.order() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalArgumentException("frames are little-endian: order=" + buffer.order());
        }
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Checks the frame at {@code offset} (bounds, checksum, header consistency) and points at it.
     *
     * @throws CorruptFrameException saying what is wrong and where
     */
    public EventFrame wrapChecked(ByteBuffer buffer, int offset, int limit, CRC32C crc) {
        wrap(buffer, offset);
        FrameLayout.checkFrame(buffer, offset, limit, crc);
        return this;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return buffer.getInt(offset + LENGTH_OFFSET);
    }

    /**
     * The header's flag bits: 0 on the timeline, {@link FrameLayout#FLAG_SNAPSHOT} and more on a
     * snapshot chunk.
     */
    public int flags() {
        return buffer.getShort(offset + FLAGS_OFFSET) & 0xFFFF;
    }

    /** Whether this frame belongs to a snapshot chunk ({@link FrameLayout#FLAG_SNAPSHOT}). */
    public boolean isSnapshot() {
        return (flags() & FLAG_SNAPSHOT) != 0;
    }

    /**
     * Whether this END_OF_TRANSACTION ends a part of its transaction, not the whole ({@link
     * FrameLayout#FLAG_CONTINUED}).
     */
    public boolean continues() {
        return FrameLayout.continues(flags());
    }

    public int checksum() {
        return buffer.getInt(offset + CRC_OFFSET);
    }

    public long scn() {
        return buffer.getLong(offset + SCN_OFFSET);
    }

    public int index() {
        return buffer.getInt(offset + INDEX_OFFSET);
    }

    public int partitionHash() {
        return buffer.getInt(offset + PARTITION_HASH_OFFSET);
    }

    public long commitTimeMicros() {
        return buffer.getLong(offset + COMMIT_TIME_OFFSET);
    }

    public int sourceId() {
        return buffer.getShort(offset + SOURCE_ID_OFFSET) & 0xFFFF;
    }

    public int operationCode() {
        return buffer.get(offset + OPERATION_OFFSET) & 0xFF;
    }

    /** The operation, or {@code null} for an unknown code in an unchecked frame. */
    public Operation operation() {
        return Operation.fromCodeOrNull(operationCode());
    }

    public int tableId() {
        return buffer.getInt(offset + TABLE_ID_OFFSET);
    }

    public int schemaVersion() {
        return buffer.getInt(offset + SCHEMA_VERSION_OFFSET);
    }

    public int transactionIdLength() {
        return buffer.getShort(offset + TRANSACTION_ID_LENGTH_OFFSET) & 0xFFFF;
    }

    public int transactionIdOffset() {
        return offset + HEADER_LENGTH;
    }

    /** The transaction id as a string (allocates). */
    public String transactionId() {
        int length = transactionIdLength();
        byte[] bytes = new byte[length];
        buffer.get(transactionIdOffset(), bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public int keyLength() {
        return buffer.getInt(offset + KEY_LENGTH_OFFSET);
    }

    public int keyOffset() {
        return transactionIdOffset() + transactionIdLength();
    }

    public int beforeLength() {
        return buffer.getInt(offset + BEFORE_LENGTH_OFFSET);
    }

    public int beforeOffset() {
        return keyOffset() + keyLength();
    }

    /** The after image's length; for SCHEMA_CHANGE, the DDL text's. */
    public int afterLength() {
        return buffer.getInt(offset + AFTER_LENGTH_OFFSET);
    }

    public int afterOffset() {
        return beforeOffset() + beforeLength();
    }

    /** True for the frame that closes a transaction. */
    public boolean isEndOfTransaction() {
        return operationCode() == Operation.END_OF_TRANSACTION.code();
    }

    /** The DDL text of a SCHEMA_CHANGE frame (allocates). */
    public String ddl() {
        byte[] bytes = new byte[afterLength()];
        buffer.get(afterOffset(), bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "EventFrame[offset="
                + offset
                + ", length="
                + length()
                + ", scn="
                + scn()
                + ", index="
                + index()
                + ", op="
                + operation()
                + ", tableId="
                + tableId()
                + ", schemaVersion="
                + schemaVersion()
                + "]";
    }
}
