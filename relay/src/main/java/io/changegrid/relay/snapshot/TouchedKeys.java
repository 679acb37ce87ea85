package io.changegrid.relay.snapshot;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.SchemaRegistry;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;

/**
 * The keys of one published table that the live transactions of a chunk's window touched: every row
 * change's key, and for an UPDATE also its before image's key (an update that changes the key moves
 * the row away from the old one). A snapshot drops these keys from the chunk, because the consumer
 * receives the log's newer copy in the window (docs/bootstrap.md). Also notes a schema change of
 * the table in the window, after which the chunk's rows (read with the older schema) are not
 * placed.
 *
 * <p>Not thread-safe: one per chunk.
 */
public final class TouchedKeys {

    private final Set<KeyValues> keys = new HashSet<>();
    private boolean schemaChanged;

    private TouchedKeys() {}

    /**
     * Scans the whole transactions in {@code frames[0, length)} for table {@code tableId}.
     *
     * @param registry the schemas the frames name
     */
    public static TouchedKeys scan(
            ByteBuffer frames, int length, int tableId, SchemaRegistry registry) {
        TouchedKeys touched = new TouchedKeys();
        EventFrame frame = new EventFrame();
        ChangeEventDecoder decoder = new ChangeEventDecoder(registry);
        for (int at = 0; at < length; at += frame.length()) {
            frame.wrap(frames, at);
            if (frame.tableId() != tableId) {
                continue;
            }
            Operation op = frame.operation();
            if (op == Operation.SCHEMA_CHANGE) {
                touched.schemaChanged = true;
            } else if (op.isRowChange()) {
                ChangeEvent event = decoder.decode(frame);
                if (event.after() != null) {
                    touched.keys.add(KeyValues.of(event.schema(), event.after()));
                }
                if (event.before() != null) {
                    touched.keys.add(KeyValues.of(event.schema(), event.before()));
                }
            }
        }
        return touched;
    }

    /** Whether the window touched the key of {@code row} (a row of the published schema). */
    boolean touches(io.changegrid.events.schema.TableSchema schema, Object[] row) {
        return keys.contains(KeyValues.of(schema, row));
    }

    /** How many distinct keys the window touched. */
    public int size() {
        return keys.size();
    }

    /** Whether the window holds a schema change of the table. */
    public boolean schemaChanged() {
        return schemaChanged;
    }
}
