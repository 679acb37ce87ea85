package io.changegrid.relay.buffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The layout of a persistent segment file ({@link SegmentFiles}), described once. All integers are
 * little-endian.
 *
 * <pre>
 *   0            4096                                              4096 + segmentBytes
 *   +------------+--------------------------------------------------+
 *   | header     | segment: entries exactly as EventBufferLayout    |
 *   +------------+--------------------------------------------------+
 *
 *   header page:
 *     0  identity  magic (8) | version (4) | slot (4) | segmentBytes (4) | segmentCount (4) |
 *                  sourceId (4) | reserved (4) | config fingerprint (8) | CRC32C of [0, 40) (4)
 *   512  start     sequence (8) | floor SCN (8) | position length (2) | floor position (UTF-8) |
 *                  ... | CRC32C of [512, 1020) at 1020 (4)
 *  1024  tail A    sequence (8) | save count (8) | last SCN (8) | end offset (4) |
 *                  position length (2) | position after the last entry (UTF-8) | ... | CRC32C (4)
 *  1536  tail B    as tail A
 * </pre>
 *
 * <ul>
 *   <li>The <em>identity</em> says whose file it is: a file of another source, slot, segment size,
 *       segment count or configuration is never read as this buffer's.
 *   <li>The <em>start record</em> ties the segment's content to the source: which lap of the log
 *       ({@code sequence}, as {@link EventBufferLayout} numbers segments) it holds, and the source
 *       position just before its first entry, with that entry's predecessor's SCN. It is written
 *       when the writer enters the segment.
 *   <li>The <em>tail records</em> say how far the segment's content is committed: the SCN of its
 *       last entry, where that entry ends, and the source position right after it. The publisher
 *       writes one after every entry, alternating between A and B, so a write torn by {@code kill
 *       -9} fails its CRC and the other record, one entry older, still stands.
 * </ul>
 *
 * <p>Stateless.
 */
final class SegmentFileLayout {

    /** "CGBUFSEG" read as a little-endian long. */
    static final long MAGIC = 0x4745_5346_5542_4743L;

    static final int VERSION = 1;

    /** Bytes before the segment: one page, so the segment's mapping stays page-aligned. */
    static final int HEADER_BYTES = 4096;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int SLOT_OFFSET = 12;
    static final int SEGMENT_BYTES_OFFSET = 16;
    static final int SEGMENT_COUNT_OFFSET = 20;
    static final int SOURCE_ID_OFFSET = 24;
    static final int FINGERPRINT_OFFSET = 32;
    static final int IDENTITY_CRC_OFFSET = 40;

    static final int RECORD_BYTES = 512;
    static final int START_OFFSET = 512;
    static final int TAIL_A_OFFSET = 1024;
    static final int TAIL_B_OFFSET = 1536;

    /** Start record fields, relative to {@link #START_OFFSET}. */
    static final int START_SEQUENCE = 0;

    static final int START_FLOOR_SCN = 8;
    static final int START_POSITION_LENGTH = 16;
    static final int START_POSITION = 18;

    /** Tail record fields, relative to the record. */
    static final int TAIL_SEQUENCE = 0;

    static final int TAIL_SAVE_COUNT = 8;
    static final int TAIL_LAST_SCN = 16;
    static final int TAIL_END_OFFSET = 24;
    static final int TAIL_POSITION_LENGTH = 28;
    static final int TAIL_POSITION = 30;

    /** Every record ends with the CRC32C of the bytes before it. */
    static final int RECORD_CRC = RECORD_BYTES - 4;

    /** The longest source position a record holds, in UTF-8 bytes. */
    static final int MAX_POSITION_BYTES = RECORD_CRC - TAIL_POSITION;

    private SegmentFileLayout() {}

    /** The CRC32C of {@code [from, to)} of {@code header}. */
    static int crc(ByteBuffer header, int from, int to, CRC32C crc) {
        crc.reset();
        crc.update(header.duplicate().limit(to).position(from));
        return (int) crc.getValue();
    }

    /** A record's source position, or null if its length field is out of range. */
    static String position(ByteBuffer header, int lengthAt, int bytesAt) {
        int length = header.getShort(lengthAt) & 0xFFFF;
        if (length > MAX_POSITION_BYTES) {
            return null;
        }
        byte[] bytes = new byte[length];
        header.get(bytesAt, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Writes a source position's length and bytes.
     *
     * @throws IllegalArgumentException if it is longer than {@link #MAX_POSITION_BYTES}
     */
    static void putPosition(ByteBuffer header, int lengthAt, int bytesAt, byte[] position) {
        if (position.length > MAX_POSITION_BYTES) {
            throw new IllegalArgumentException(
                    "source position too long for a segment record: bytes="
                            + position.length
                            + ", max="
                            + MAX_POSITION_BYTES);
        }
        header.putShort(lengthAt, (short) position.length);
        header.put(bytesAt, position);
    }
}
