package io.changegrid.consumer.schema;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The schemas of one relay: a registry the dispatcher decodes that relay's frames with, filled by
 * the puller from a {@link SchemaSource} before a response is handed on.
 *
 * <p>One cache per relay because table ids are assigned by each relay's own registry: replicas of
 * one source agree on SCNs, but nothing makes them number tables alike, so a frame is only ever
 * decoded with the schemas of the relay that sent it.
 *
 * <p>Threading: {@link #ensureSchemas} runs on the puller thread only; {@link #registry()} is read
 * by the dispatcher thread (the registry is safe for one writer and many readers, and an entry is
 * published to the dispatcher only after its schemas are in).
 */
public final class SchemaCache {

    private final SchemaRegistry registry = new SchemaRegistry();
    private final SchemaKeys known = new SchemaKeys();
    private final EventFrame frame = new EventFrame();
    private final SchemaSource source;

    public SchemaCache(SchemaSource source) {
        this.source = source;
    }

    /** The registry holding every schema fetched so far. */
    public SchemaRegistry registry() {
        return registry;
    }

    /**
     * Makes sure the registry holds the schema of every row change and schema change among the
     * checked frames in {@code [offset, offset + length)}, fetching the missing ones.
     *
     * @return the number of schemas fetched
     * @throws IOException if a missing schema could not be fetched
     */
    public int ensureSchemas(ByteBuffer buffer, int offset, int length) throws IOException {
        int fetched = 0;
        long lastKey = 0;
        for (int position = offset; position < offset + length; position += frame.length()) {
            frame.wrap(buffer, position);
            int op = frame.operationCode();
            if (op == Operation.HEARTBEAT.code() || op == Operation.END_OF_TRANSACTION.code()) {
                continue;
            }
            long key = SchemaKeys.key(frame.tableId(), frame.schemaVersion());
            if (key == lastKey || known.contains(key)) {
                lastKey = key;
                continue;
            }
            add(
                    source.fetch(frame.tableId(), frame.schemaVersion()),
                    frame.tableId(),
                    frame.schemaVersion());
            lastKey = key;
            fetched++;
        }
        return fetched;
    }

    /** The number of schema versions held. */
    public int size() {
        return known.size();
    }

    private void add(TableSchema schema, int tableId, int version) throws IOException {
        if (schema.tableId() != tableId || schema.version() != version) {
            throw new IOException(
                    "schema source answered another schema: asked tableId="
                            + tableId
                            + ", version="
                            + version
                            + ", got tableId="
                            + schema.tableId()
                            + ", version="
                            + schema.version());
        }
        try {
            registry.restore(schema);
        } catch (IllegalArgumentException e) {
            throw new IOException("schema conflicts with one fetched before: " + e.getMessage(), e);
        }
        known.add(SchemaKeys.key(tableId, version));
    }
}
