package io.changegrid.consumer.api;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;

/**
 * A read-only view of the event {@link ConsumerCallback#onEvent} is handling: header fields are
 * read in place from the event's binary frame in the consumer's buffer, and row values are decoded
 * only when asked for.
 *
 * <p><b>Valid only during the call.</b> The consumer reuses one view for every event, so after
 * {@code onEvent} returns the same object shows another event, or bytes that were overwritten. Copy
 * what you keep: header values, the arrays of {@link #before()}/{@link #after()}, or a whole {@link
 * #toChangeEvent()}.
 *
 * <p>Operations seen here are INSERT, UPDATE, DELETE and SCHEMA_CHANGE. The end of a transaction is
 * {@link ConsumerCallback#onEndTransaction}; heartbeats move the checkpoint without a call.
 */
public interface EventView {

    /** The source's id. */
    int sourceId();

    /** The transaction's position on the source's timeline. */
    long scn();

    /** The event's position in its source transaction (with a subscription, gaps are possible). */
    int index();

    /** What happened. */
    Operation operation();

    /** The source commit time of the transaction, microseconds since the epoch. */
    long commitTimeMicros();

    /** The source's id of the transaction (e.g. a GTID); the same string for all its events. */
    String transactionId();

    /** The MurmurHash3 of the key image that relays and consumers partition by. */
    int partitionHash();

    /** The id of the event's table; 0 for control events. */
    int tableId();

    /** The schema version that decodes the row images. */
    int schemaVersion();

    /**
     * The schema of the event's table, for SCHEMA_CHANGE the new one; immutable, may be kept.
     *
     * @return the schema, or {@code null} for an event without a table
     */
    TableSchema schema();

    /** The database (or schema) of the event's table; {@code null} without a table. */
    String database();

    /** The name of the event's table; {@code null} without a table. */
    String table();

    /**
     * The primary key values in key order, decoded on first use; empty for a keyless table or a
     * SCHEMA_CHANGE.
     */
    Object[] key();

    /** The row before the change (UPDATE, DELETE) in column order, else {@code null}. */
    Object[] before();

    /** The row after the change (INSERT, UPDATE) in column order, else {@code null}. */
    Object[] after();

    /**
     * One column's value: from the after image, or from the before image for a DELETE.
     *
     * @throws IllegalArgumentException naming the table and column if the table has no such column
     * @throws IllegalStateException if the event is not a row change
     */
    Object get(String column);

    /** The DDL statement of a SCHEMA_CHANGE, else {@code null}. */
    String ddl();

    /** The whole event as plain Java objects, newly allocated: may be kept. */
    ChangeEvent toChangeEvent();

    /**
     * The buffer that holds the event's frame, read-only and little-endian, for code that reads
     * frames itself ({@link io.changegrid.events.frame.EventFrame#wrap}). Shared and reused, like
     * the view.
     */
    ByteBuffer frameBuffer();

    /** Where the event's frame starts in {@link #frameBuffer()}. */
    int frameOffset();

    /** The frame's length in bytes, header included. */
    int frameLength();

    /**
     * Whether the event is a row copied by a snapshot (docs/bootstrap.md), not a live change: an
     * INSERT carrying the row's value at the chunk's point of the timeline (its {@link #scn()}, the
     * chunk's high watermark). Apply it as an upsert; live changes of rows not yet copied arrive as
     * ordinary events (an UPDATE carries the whole row; a DELETE of a row not held is a no-op).
     */
    default boolean isSnapshot() {
        int flags = frameBuffer().getShort(frameOffset() + FrameLayout.FLAGS_OFFSET) & 0xFFFF;
        return (flags & FrameLayout.FLAG_SNAPSHOT) != 0;
    }
}
