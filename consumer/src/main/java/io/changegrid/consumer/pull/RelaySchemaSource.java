package io.changegrid.consumer.pull;

import io.changegrid.consumer.schema.SchemaSource;
import io.changegrid.events.json.MalformedJsonException;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;

/**
 * Fetches one schema version from a relay: {@code GET /v1/schemas?tableId=X&version=Y}.
 *
 * <p>Threading: called on the puller thread; the HTTP client is thread-safe.
 */
final class RelaySchemaSource implements SchemaSource {

    private final HttpClient http;
    private final URI relay;
    private final Duration timeout;

    RelaySchemaSource(HttpClient http, URI relay, Duration timeout) {
        this.http = http;
        this.relay = relay;
        this.timeout = timeout;
    }

    @Override
    public TableSchema fetch(int tableId, int version) throws IOException {
        String url = relay + "v1/schemas?tableId=" + tableId + "&version=" + version;
        ContentResponse response;
        try {
            response =
                    http.newRequest(url).timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).send();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted fetching a schema: url=" + url, e);
        } catch (TimeoutException | ExecutionException e) {
            throw new IOException("schema not fetched: url=" + url + ", reason=" + e, e);
        }
        if (response.getStatus() != 200) {
            throw new IOException(
                    "schema not served: url="
                            + url
                            + ", status="
                            + response.getStatus()
                            + ", body="
                            + response.getContentAsString());
        }
        try {
            return SchemaJson.fromJson(response.getContentAsString());
        } catch (MalformedJsonException e) {
            throw new IOException(
                    "schema not readable: url=" + url + ", reason=" + e.getMessage(), e);
        }
    }
}
