package io.changegrid.consumer.pull;

import io.changegrid.consumer.schema.SchemaSource;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.protocol.RelayClient;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * Fetches one schema version from a relay: {@code GET /v1/schemas?tableId=X&version=Y}.
 *
 * <p>Threading: called on the puller thread; the relay client is thread-safe.
 */
final class RelaySchemaSource implements SchemaSource {

    private final RelayClient http;
    private final URI relay;
    private final Duration timeout;

    RelaySchemaSource(RelayClient http, URI relay, Duration timeout) {
        this.http = http;
        this.relay = relay;
        this.timeout = timeout;
    }

    @Override
    public TableSchema fetch(int tableId, int version) throws IOException {
        try {
            return http.schema(relay, tableId, version, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(
                    "interrupted fetching a schema: relay="
                            + relay
                            + ", tableId="
                            + tableId
                            + ", version="
                            + version,
                    e);
        }
    }
}
