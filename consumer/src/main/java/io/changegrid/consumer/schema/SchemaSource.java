package io.changegrid.consumer.schema;

import io.changegrid.events.schema.TableSchema;
import java.io.IOException;

/** Where a consumer gets a schema version it has not seen: the relay that sent the frames. */
@FunctionalInterface
public interface SchemaSource {

    /**
     * The given version of the given table.
     *
     * @throws IOException if the source cannot be reached or does not know it
     */
    TableSchema fetch(int tableId, int version) throws IOException;
}
