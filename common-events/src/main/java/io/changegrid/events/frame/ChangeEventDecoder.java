package io.changegrid.events.frame;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;

/**
 * Turns a frame into a {@link ChangeEvent}, looking its schema up in a registry. Allocates the
 * event and its values; hot paths that only route or filter read {@link EventFrame} instead.
 *
 * <p>Not thread-safe (it reuses a cursor); one per thread.
 */
public final class ChangeEventDecoder {

    private final SchemaRegistry registry;
    private final ByteCursor cursor = new ByteCursor();

    public ChangeEventDecoder(SchemaRegistry registry) {
        this.registry = registry;
    }

    /**
     * Decodes the frame. The frame must already be checked ({@link EventFrame#wrapChecked}); the
     * images are checked against their schema here.
     *
     * @throws CorruptFrameException if an image does not match its schema
     * @throws io.changegrid.events.schema.UnknownSchemaException if the registry lacks the schema
     */
    public ChangeEvent decode(EventFrame frame) {
        Operation op = frame.operation();
        if (op == null) {
            throw new CorruptFrameException(
                    "unknown operation: offset="
                            + frame.offset()
                            + ", code="
                            + frame.operationCode());
        }
        TableSchema schema = null;
        Object[] before = null;
        Object[] after = null;
        String ddl = null;
        switch (op) {
            case INSERT, UPDATE, DELETE -> {
                schema = registry.schema(frame.tableId(), frame.schemaVersion());
                if (frame.beforeLength() > 0) {
                    cursor.wrap(frame.buffer(), frame.beforeOffset(), frame.beforeLength());
                    before = RowImageCodec.readRow(cursor, schema);
                }
                if (frame.afterLength() > 0) {
                    cursor.wrap(frame.buffer(), frame.afterOffset(), frame.afterLength());
                    after = RowImageCodec.readRow(cursor, schema);
                }
                cursor.wrap(frame.buffer(), frame.keyOffset(), frame.keyLength());
                RowImageCodec.readKey(cursor, schema); // checks the key image is well formed
            }
            case SCHEMA_CHANGE -> {
                schema = registry.schema(frame.tableId(), frame.schemaVersion());
                ddl = frame.ddl();
            }
            case HEARTBEAT, END_OF_TRANSACTION -> {}
        }
        return new ChangeEvent(
                frame.sourceId(),
                frame.scn(),
                frame.index(),
                frame.commitTimeMicros(),
                frame.transactionId(),
                op,
                schema,
                before,
                after,
                ddl);
    }

    /**
     * Decodes the key image of a row-change frame into the key values in key order.
     *
     * @throws CorruptFrameException if the key image does not match its schema
     */
    public Object[] decodeKey(EventFrame frame) {
        TableSchema schema = registry.schema(frame.tableId(), frame.schemaVersion());
        cursor.wrap(frame.buffer(), frame.keyOffset(), frame.keyLength());
        return RowImageCodec.readKey(cursor, schema);
    }
}
