package io.changegrid.events.frame;

import static io.changegrid.events.frame.FrameLayout.*;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Builds frames into an {@link ExpandableBuffer}, a transaction at a time: {@link
 * #beginTransaction}, one {@code append*} per event, {@link #endTransaction}. Transaction-level
 * fields (source, SCN, commit time, transaction id) are given once and the index inside the
 * transaction is counted here, so frames of one transaction can never disagree about them.
 *
 * <p>The buffer then holds whole frames back to back, ready to be copied once into an event buffer
 * or onto the wire. A value that does not fit its column fails that one append with an {@link
 * IllegalArgumentException}; the frame written half-way is dropped and the transaction stays open
 * and consistent.
 *
 * <p>Not thread-safe: one fetcher thread owns an encoder. Encoding allocates nothing per event
 * except for strings with non-ASCII characters and for decimal and bit values.
 */
public final class FrameEncoder {

    private final ExpandableBuffer out;
    private final CRC32C crc = new CRC32C();
    private final RowImageWriter imageWriter;
    private boolean inTransaction;
    private int sourceId;
    private long scn;
    private long commitTimeMicros;
    private byte[] transactionId;
    private int nextIndex;

    /** An encoder writing into a new buffer of the given initial capacity. */
    public FrameEncoder(int initialCapacity) {
        this(new ExpandableBuffer(initialCapacity));
    }

    /** An encoder appending to {@code out}. */
    public FrameEncoder(ExpandableBuffer out) {
        this.out = out;
        this.imageWriter = new RowImageWriter(out);
    }

    /** The buffer the frames are written into. */
    public ExpandableBuffer buffer() {
        return out;
    }

    /**
     * Starts a transaction.
     *
     * @param sourceId the source's id, 0..65535
     * @param scn the transaction's position on the source timeline
     * @param commitTimeMicros the source commit time, microseconds since the epoch
     * @param transactionId the source's id of the transaction (e.g. a GTID), at most 65535 UTF-8
     *     bytes
     */
    public void beginTransaction(
            int sourceId, long scn, long commitTimeMicros, String transactionId) {
        if (inTransaction) {
            throw new IllegalStateException("transaction already open: scn=" + this.scn);
        }
        checkSourceId(sourceId);
        byte[] id = transactionId.getBytes(StandardCharsets.UTF_8);
        if (id.length > MAX_TRANSACTION_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "transaction id too long: bytes="
                            + id.length
                            + ", max="
                            + MAX_TRANSACTION_ID_LENGTH);
        }
        this.inTransaction = true;
        this.sourceId = sourceId;
        this.scn = scn;
        this.commitTimeMicros = commitTimeMicros;
        this.transactionId = id;
        this.nextIndex = 0;
    }

    /** The number of events appended to the open transaction so far. */
    public int eventCount() {
        return nextIndex;
    }

    /**
     * Appends a row change to the open transaction.
     *
     * @param op INSERT (after only), UPDATE (both) or DELETE (before only)
     * @param schema the schema version the images are written with
     * @param before the row before the change, one value per column, or {@code null}
     * @param after the row after the change, or {@code null}
     * @return the offset of the new frame in the buffer
     */
    public int appendRowChange(Operation op, TableSchema schema, Object[] before, Object[] after) {
        requireTransaction();
        requireImagesFit(op, before != null, after != null, schema);
        int start = startFrame(op, schema.tableId(), schema.version(), transactionId);
        try {
            int keyAt = out.position();
            RowImageCodec.writeKey(out, schema, after != null ? after : before);
            int keyLength = out.position() - keyAt;
            int beforeLength = 0;
            if (before != null) {
                RowImageCodec.writeRow(out, schema, before);
                beforeLength = out.position() - keyAt - keyLength;
            }
            int afterLength = 0;
            if (after != null) {
                int afterAt = out.position();
                RowImageCodec.writeRow(out, schema, after);
                afterLength = out.position() - afterAt;
            }
            return finishRowChange(schema, start, keyAt, keyLength, beforeLength, afterLength);
        } catch (RuntimeException e) {
            out.position(start);
            throw e;
        }
    }

    /**
     * Appends a row change whose images the source writes in place ({@link RowImages}): the same
     * frame {@link #appendRowChange(Operation, TableSchema, Object[], Object[])} builds from the
     * images as values, byte for byte, without the values.
     *
     * @param op INSERT (after image only), UPDATE (both) or DELETE (before image only)
     * @return the offset of the new frame in the buffer
     */
    public int appendRowChange(Operation op, TableSchema schema, RowImages images) {
        requireTransaction();
        boolean hasBefore = op != Operation.INSERT;
        boolean hasAfter = op != Operation.DELETE;
        requireImagesFit(op, hasBefore, hasAfter, schema);
        int start = startFrame(op, schema.tableId(), schema.version(), transactionId);
        try {
            int keyAt = out.position();
            RowImageCodec.writeImage(out, schema, images, imageWriter, hasAfter, true);
            int keyLength = out.position() - keyAt;
            int beforeLength = 0;
            if (hasBefore) {
                RowImageCodec.writeImage(out, schema, images, imageWriter, false, false);
                beforeLength = out.position() - keyAt - keyLength;
            }
            int afterLength = 0;
            if (hasAfter) {
                int afterAt = out.position();
                RowImageCodec.writeImage(out, schema, images, imageWriter, true, false);
                afterLength = out.position() - afterAt;
            }
            return finishRowChange(schema, start, keyAt, keyLength, beforeLength, afterLength);
        } catch (RuntimeException e) {
            out.position(start);
            throw e;
        }
    }

    private int finishRowChange(
            TableSchema schema,
            int start,
            int keyAt,
            int keyLength,
            int beforeLength,
            int afterLength) {
        ByteBuffer bytes = out.byteBuffer();
        int hash =
                schema.hasKey()
                        ? KeyHash.murmur3(bytes, keyAt, keyLength)
                        : KeyHash.ofTableId(schema.tableId());
        bytes.putInt(start + PARTITION_HASH_OFFSET, hash);
        return finishFrame(start, keyLength, beforeLength, afterLength);
    }

    private static void requireImagesFit(
            Operation op, boolean before, boolean after, TableSchema schema) {
        boolean imagesFit =
                switch (op) {
                    case INSERT -> !before && after;
                    case UPDATE -> before && after;
                    case DELETE -> before && !after;
                    default -> throw new IllegalArgumentException("not a row change: op=" + op);
                };
        if (!imagesFit) {
            throw new IllegalArgumentException(
                    "images do not fit operation: op="
                            + op
                            + ", before="
                            + before
                            + ", after="
                            + after
                            + ", table="
                            + schema.qualifiedName());
        }
    }

    /**
     * Appends a schema change to the open transaction: the new schema version of a table and the
     * DDL statement that made it.
     */
    public int appendSchemaChange(TableSchema newSchema, String ddl) {
        requireTransaction();
        int start =
                startFrame(
                        Operation.SCHEMA_CHANGE,
                        newSchema.tableId(),
                        newSchema.version(),
                        transactionId);
        int ddlAt = out.position();
        byte[] text = ddl.getBytes(StandardCharsets.UTF_8);
        out.putBytes(text, 0, text.length);
        return finishFrame(start, 0, 0, out.position() - ddlAt);
    }

    /**
     * Closes the open transaction with an END_OF_TRANSACTION frame whose index is the number of
     * events in it.
     *
     * @return the offset of the END_OF_TRANSACTION frame
     */
    public int endTransaction() {
        requireTransaction();
        int start = startFrame(Operation.END_OF_TRANSACTION, 0, 0, transactionId);
        int offset = finishFrame(start, 0, 0, 0);
        inTransaction = false;
        return offset;
    }

    /**
     * Ends a part of the open transaction with an END_OF_TRANSACTION frame marked {@link
     * FrameLayout#FLAG_CONTINUED}, whose index is the number of events so far; the transaction
     * stays open and its next event takes that same index. The caller hands the part on and then
     * typically {@linkplain ExpandableBuffer#clear() clears} the buffer for the next part.
     *
     * @return the offset of the part's END_OF_TRANSACTION frame
     */
    public int endPart() {
        requireTransaction();
        int start = startFrame(Operation.END_OF_TRANSACTION, 0, 0, transactionId);
        out.byteBuffer().putShort(start + FrameLayout.FLAGS_OFFSET, (short) FLAG_CONTINUED);
        int offset = finishFrame(start, 0, 0, 0);
        nextIndex--; // a part end takes no index of its own
        return offset;
    }

    /** Drops the open transaction's frames, e.g. when its source connection broke half-way. */
    public void abortTransaction(int transactionStart) {
        out.position(transactionStart);
        inTransaction = false;
    }

    /**
     * Appends a heartbeat: the source is alive and idle up to {@code scn}. Outside transactions.
     */
    public int appendHeartbeat(int sourceId, long scn, long sourceTimeMicros) {
        if (inTransaction) {
            throw new IllegalStateException("heartbeat inside transaction: scn=" + this.scn);
        }
        checkSourceId(sourceId);
        this.sourceId = sourceId;
        this.scn = scn;
        this.commitTimeMicros = sourceTimeMicros;
        this.nextIndex = 0;
        int start = startFrame(Operation.HEARTBEAT, 0, 0, null);
        return finishFrame(start, 0, 0, 0);
    }

    private int startFrame(Operation op, int tableId, int schemaVersion, byte[] txnId) {
        int start = out.position();
        out.reserve(HEADER_LENGTH);
        out.putInt(0); // length, patched by finishFrame
        out.putInt(0); // crc, patched by finishFrame
        out.putLong(scn);
        out.putInt(nextIndex);
        out.putInt(0); // partition hash, patched for row changes
        out.putLong(commitTimeMicros);
        out.putShort(sourceId);
        out.putByte(VERSION);
        out.putByte(op.code());
        out.putInt(tableId);
        out.putInt(schemaVersion);
        out.putShort(txnId == null ? 0 : txnId.length);
        out.putShort(0); // flags
        out.putInt(0); // key length
        out.putInt(0); // before length
        out.putInt(0); // after length
        out.putInt(0); // reserved
        if (txnId != null) {
            out.putBytes(txnId, 0, txnId.length);
        }
        return start;
    }

    private int finishFrame(int start, int keyLength, int beforeLength, int afterLength) {
        int length = out.position() - start;
        ByteBuffer bytes = out.byteBuffer();
        bytes.putInt(start + LENGTH_OFFSET, length);
        bytes.putInt(start + KEY_LENGTH_OFFSET, keyLength);
        bytes.putInt(start + BEFORE_LENGTH_OFFSET, beforeLength);
        bytes.putInt(start + AFTER_LENGTH_OFFSET, afterLength);
        bytes.putInt(start + CRC_OFFSET, FrameLayout.crc32c(bytes, start, length, crc));
        nextIndex++;
        return start;
    }

    private void requireTransaction() {
        if (!inTransaction) {
            throw new IllegalStateException("no open transaction");
        }
    }

    private static void checkSourceId(int sourceId) {
        if (sourceId < 0 || sourceId > MAX_SOURCE_ID) {
            throw new IllegalArgumentException(
                    "source id out of range: sourceId=" + sourceId + ", max=" + MAX_SOURCE_ID);
        }
    }
}
