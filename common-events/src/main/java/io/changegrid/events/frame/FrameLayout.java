package io.changegrid.events.frame;

import io.changegrid.events.Operation;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The binary layout of an event frame, described once. All integers are little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         Frame Length                          |  0
 *  +---------------------------------------------------------------+
 *  |                CRC32C of bytes [8, Frame Length)              |  4
 *  +---------------------------------------------------------------+
 *  |                              SCN                              |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Index in Transaction                      | 16
 *  +---------------------------------------------------------------+
 *  |                     Partition Hash of Key                     | 20
 *  +---------------------------------------------------------------+
 *  |               Commit Time, microseconds since epoch           | 24
 *  |                                                               |
 *  +-------------------------------+---------------+---------------+
 *  |           Source Id           |    Version    |   Operation   | 32
 *  +-------------------------------+---------------+---------------+
 *  |                           Table Id                            | 36
 *  +---------------------------------------------------------------+
 *  |                        Schema Version                         | 40
 *  +-------------------------------+-------------------------------+
 *  |     Transaction Id Length     |             Flags             | 44
 *  +-------------------------------+-------------------------------+
 *  |                       Key Image Length                        | 48
 *  +---------------------------------------------------------------+
 *  |                      Before Image Length                      | 52
 *  +---------------------------------------------------------------+
 *  |                 After Image (or DDL) Length                   | 56
 *  +---------------------------------------------------------------+
 *  |                           Reserved                            | 60
 *  +---------------------------------------------------------------+
 *  |        Transaction Id (UTF-8), Key Image, Before Image,      ...  64
 *  |        After Image or DDL text (UTF-8), back to back         ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>Frame Length counts the whole frame, header included; CRC32C covers everything after the
 *       checksum field, so any damaged bit is found before a field is trusted.
 *   <li>SCN is the transaction's position on its source's timeline; Index is the event's position
 *       inside the transaction. For END_OF_TRANSACTION, Index is the number of events before it.
 *   <li>Partition Hash is {@link KeyHash#murmur3} of the key image, or {@link KeyHash#ofTableId}
 *       for tables without a key and 0 for control events: filters and partitioners read it from
 *       the header without decoding anything.
 *   <li>Table Id and Schema Version name the {@link io.changegrid.events.schema.TableSchema} that
 *       decodes the images; both are 0 for HEARTBEAT and END_OF_TRANSACTION.
 *   <li>A section length of 0 means the section is absent (a row image is never empty).
 *   <li>Flags are 0 on every frame of the timeline but one kind: the END_OF_TRANSACTION that ends a
 *       <em>part</em> of a transaction too large to publish in one piece carries {@link
 *       #FLAG_CONTINUED}; the transaction goes on in the next part, with the same SCN. A relay sets
 *       {@link #FLAG_SNAPSHOT} (and {@link #FLAG_SNAPSHOT_COMPLETE}) only on the frames of a
 *       snapshot chunk it serves to the one consumer that asked for a snapshot (docs/bootstrap.md,
 *       {@link SnapshotFrames}); those frames never enter an event buffer. Reserved is 0 in version
 *       1.
 * </ul>
 */
public final class FrameLayout {

    /** The layout version written into every frame. */
    public static final int VERSION = 1;

    public static final int LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = LENGTH_OFFSET + Integer.BYTES;
    public static final int SCN_OFFSET = CRC_OFFSET + Integer.BYTES;
    public static final int INDEX_OFFSET = SCN_OFFSET + Long.BYTES;
    public static final int PARTITION_HASH_OFFSET = INDEX_OFFSET + Integer.BYTES;
    public static final int COMMIT_TIME_OFFSET = PARTITION_HASH_OFFSET + Integer.BYTES;
    public static final int SOURCE_ID_OFFSET = COMMIT_TIME_OFFSET + Long.BYTES;
    public static final int VERSION_OFFSET = SOURCE_ID_OFFSET + Short.BYTES;
    public static final int OPERATION_OFFSET = VERSION_OFFSET + Byte.BYTES;
    public static final int TABLE_ID_OFFSET = OPERATION_OFFSET + Byte.BYTES;
    public static final int SCHEMA_VERSION_OFFSET = TABLE_ID_OFFSET + Integer.BYTES;
    public static final int TRANSACTION_ID_LENGTH_OFFSET = SCHEMA_VERSION_OFFSET + Integer.BYTES;
    public static final int FLAGS_OFFSET = TRANSACTION_ID_LENGTH_OFFSET + Short.BYTES;
    public static final int KEY_LENGTH_OFFSET = FLAGS_OFFSET + Short.BYTES;
    public static final int BEFORE_LENGTH_OFFSET = KEY_LENGTH_OFFSET + Integer.BYTES;
    public static final int AFTER_LENGTH_OFFSET = BEFORE_LENGTH_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = AFTER_LENGTH_OFFSET + Integer.BYTES;

    /** Where the variable sections start. */
    public static final int HEADER_LENGTH = RESERVED_OFFSET + Integer.BYTES;

    /** The offset the checksum starts at. */
    public static final int CHECKSUMMED_FROM = SCN_OFFSET;

    /** Longest transaction id: the length field is an unsigned short. */
    public static final int MAX_TRANSACTION_ID_LENGTH = 0xFFFF;

    /** Largest source id: the field is an unsigned short. */
    public static final int MAX_SOURCE_ID = 0xFFFF;

    /**
     * Flags bit 0: a frame of a snapshot chunk, a row copied from the source's table (INSERT, after
     * image) or the chunk's END_OF_TRANSACTION. Its SCN is the chunk's high watermark: the rows are
     * the table's values just before that point of the timeline.
     */
    public static final int FLAG_SNAPSHOT = 1;

    /**
     * Flags bit 1, with {@link #FLAG_SNAPSHOT}, on the END_OF_TRANSACTION of the snapshot's last
     * chunk: every table of the snapshot has been copied.
     */
    public static final int FLAG_SNAPSHOT_COMPLETE = 1 << 1;

    /**
     * Flags bit 2, on an END_OF_TRANSACTION only: it ends a part of its transaction, not the
     * transaction; the next part (the next entry of the timeline, same SCN) continues it. Its Index
     * is the number of events before it in the whole transaction, and the next part's first event
     * has the same index: part ends take no index of their own, so the events of a transaction are
     * numbered 0, 1, ... across its parts, exactly as if it had been published whole. A reader must
     * not checkpoint at a part end: the checkpoint stays at the SCN before the transaction until
     * the END_OF_TRANSACTION without this flag.
     */
    public static final int FLAG_CONTINUED = 1 << 2;

    /**
     * Where a fetcher cuts a transaction into parts: a part ends after the first event that takes
     * it to this many bytes or more. Fixed, not configured, so that every relay of a source cuts
     * every transaction at the same events and serves identical frames (a relay whose segments are
     * smaller cuts at a quarter of its segment instead, see {@link #partBytes}).
     */
    public static final int PART_BYTES = 1 << 20;

    private FrameLayout() {}

    /**
     * The part size of a relay whose largest entry is {@code maxEntryBytes} (its buffer segment):
     * {@link #PART_BYTES}, or a quarter of a segment smaller than 4 MiB, so that a part plus its
     * last event and its part end still fits.
     */
    public static int partBytes(int maxEntryBytes) {
        return Math.min(PART_BYTES, maxEntryBytes / 4);
    }

    /** Whether the flags of an END_OF_TRANSACTION say it ends a part, not the transaction. */
    public static boolean continues(int flags) {
        return (flags & FLAG_CONTINUED) != 0;
    }

    /**
     * Checks the frame at {@code offset}: that it lies inside {@code [offset, limit)}, that its
     * header fields are consistent and that its checksum matches. Returns the frame length.
     *
     * @param crc a scratch checksum, reset here; passed in so a hot loop allocates nothing
     * @throws CorruptFrameException saying what is wrong and where
     */
    public static int checkFrame(ByteBuffer buffer, int offset, int limit, CRC32C crc) {
        int available = limit - offset;
        if (available < HEADER_LENGTH) {
            throw new CorruptFrameException(
                    "truncated frame header: offset="
                            + offset
                            + ", available="
                            + available
                            + ", headerLength="
                            + HEADER_LENGTH);
        }
        int length = buffer.getInt(offset + LENGTH_OFFSET);
        if (length < HEADER_LENGTH) {
            throw new CorruptFrameException(
                    "frame length shorter than header: offset=" + offset + ", length=" + length);
        }
        if (length > available) {
            throw new CorruptFrameException(
                    "truncated frame: offset="
                            + offset
                            + ", length="
                            + length
                            + ", available="
                            + available);
        }
        int expectedCrc = buffer.getInt(offset + CRC_OFFSET);
        int actualCrc = crc32c(buffer, offset, length, crc);
        if (expectedCrc != actualCrc) {
            throw new CorruptFrameException(
                    "frame checksum mismatch: offset="
                            + offset
                            + ", length="
                            + length
                            + ", expected="
                            + Integer.toHexString(expectedCrc)
                            + ", actual="
                            + Integer.toHexString(actualCrc));
        }
        int version = buffer.get(offset + VERSION_OFFSET) & 0xFF;
        if (version != VERSION) {
            throw new CorruptFrameException(
                    "unsupported frame version: offset=" + offset + ", version=" + version);
        }
        int opCode = buffer.get(offset + OPERATION_OFFSET) & 0xFF;
        Operation op = Operation.fromCodeOrNull(opCode);
        if (op == null) {
            throw new CorruptFrameException(
                    "unknown operation: offset=" + offset + ", code=" + opCode);
        }
        long sections =
                (long) (buffer.getShort(offset + TRANSACTION_ID_LENGTH_OFFSET) & 0xFFFF)
                        + sectionLength(buffer, offset, KEY_LENGTH_OFFSET, "key")
                        + sectionLength(buffer, offset, BEFORE_LENGTH_OFFSET, "before")
                        + sectionLength(buffer, offset, AFTER_LENGTH_OFFSET, "after");
        if (HEADER_LENGTH + sections != length) {
            throw new CorruptFrameException(
                    "section lengths do not add up to frame length: offset="
                            + offset
                            + ", length="
                            + length
                            + ", sections="
                            + sections);
        }
        checkSectionsFit(buffer, offset, op);
        return length;
    }

    /**
     * CRC32C over {@code [offset + CHECKSUMMED_FROM, offset + length)}. For a direct buffer this
     * moves the buffer's position and limit for the duration of the call and restores them: callers
     * on different threads each use their own view of a shared buffer, as absolute reads need
     * anyway.
     */
    static int crc32c(ByteBuffer buffer, int offset, int length, CRC32C crc) {
        crc.reset();
        int from = offset + CHECKSUMMED_FROM;
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + from, length - CHECKSUMMED_FROM);
        } else {
            int position = buffer.position();
            int limit = buffer.limit();
            buffer.limit(offset + length).position(from);
            crc.update(buffer);
            buffer.limit(limit).position(position);
        }
        return (int) crc.getValue();
    }

    private static int sectionLength(ByteBuffer buffer, int offset, int field, String name) {
        int length = buffer.getInt(offset + field);
        if (length < 0) {
            throw new CorruptFrameException(
                    "negative " + name + " length: offset=" + offset + ", length=" + length);
        }
        return length;
    }

    private static void checkSectionsFit(ByteBuffer buffer, int offset, Operation op) {
        boolean hasKey = buffer.getInt(offset + KEY_LENGTH_OFFSET) != 0;
        boolean hasBefore = buffer.getInt(offset + BEFORE_LENGTH_OFFSET) != 0;
        boolean hasAfter = buffer.getInt(offset + AFTER_LENGTH_OFFSET) != 0;
        boolean fits =
                switch (op) {
                    case INSERT -> hasKey && !hasBefore && hasAfter;
                    case UPDATE -> hasKey && hasBefore && hasAfter;
                    case DELETE -> hasKey && hasBefore && !hasAfter;
                    case SCHEMA_CHANGE -> !hasKey && !hasBefore;
                    case HEARTBEAT, END_OF_TRANSACTION -> !hasKey && !hasBefore && !hasAfter;
                };
        if (!fits) {
            throw new CorruptFrameException(
                    "sections do not fit operation: offset="
                            + offset
                            + ", op="
                            + op
                            + ", key="
                            + hasKey
                            + ", before="
                            + hasBefore
                            + ", after="
                            + hasAfter);
        }
    }
}
