package io.changegrid.appliers.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.json.MalformedJsonException;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.protocol.RelayClient;
import io.changegrid.protocol.TableGlob;
import io.changegrid.protocol.tls.RelayCredentials;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table schemas a relay serves at {@code GET /v1/schemas}, newest version per table: what an
 * applier can check before it applies anything. A relay knows the tables it has captured since its
 * buffer began (and the schemas it keeps in its state), so a table it has not seen yet is not here
 * and is checked at its first row instead.
 *
 * <p>Stateless; each call opens its own relay client.
 */
public final class RelaySchemas {

    private static final Logger LOG = LoggerFactory.getLogger(RelaySchemas.class);
    private static final JsonFactory JSON = new JsonFactory();

    private RelaySchemas() {}

    /**
     * The newest schema of each table matching {@code patterns}, from the first relay that answers.
     *
     * @param relays relay base URLs
     * @param patterns {@code database.table} patterns with {@code *}; empty for every table
     * @return the schemas, or empty when no relay answered (the caller then cannot check at start)
     */
    public static Optional<List<TableSchema>> fetch(
            List<URI> relays, List<String> patterns, Duration timeout) {
        return fetch(relays, patterns, timeout, RelayCredentials.NONE);
    }

    /**
     * As {@link #fetch(List, List, Duration)}, reaching the relays with {@code credentials} (TLS
     * files and bearer token).
     */
    public static Optional<List<TableSchema>> fetch(
            List<URI> relays,
            List<String> patterns,
            Duration timeout,
            RelayCredentials credentials) {
        List<TableGlob> wanted = patterns.stream().map(TableGlob::parse).toList();
        try (RelayClient http = RelayClient.start("relay-schemas", timeout, false, credentials)) {
            for (URI relay : relays) {
                try {
                    return Optional.of(newest(http.schemas(relay, timeout), wanted));
                } catch (IOException | MalformedJsonException e) {
                    LOG.warn("relay schemas not read: relay={}, error={}", relay, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("relay schemas not read: error={}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /** {@code {"schemas":[...]}} to the newest version of each wanted table. */
    static List<TableSchema> newest(String body, List<TableGlob> wanted) throws IOException {
        Map<Integer, TableSchema> byTable = new LinkedHashMap<>();
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(
                        "not a schema list: body starts with " + parser.currentToken());
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if (!"schemas".equals(field)) {
                    parser.skipChildren();
                    continue;
                }
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    TableSchema schema = SchemaJson.read(parser);
                    if (isWanted(schema, wanted)) {
                        byTable.merge(
                                schema.tableId(),
                                schema,
                                (a, b) -> a.version() >= b.version() ? a : b);
                    }
                }
            }
        }
        return new ArrayList<>(byTable.values());
    }

    private static boolean isWanted(TableSchema schema, List<TableGlob> wanted) {
        if (wanted.isEmpty()) {
            return true;
        }
        for (TableGlob pattern : wanted) {
            if (pattern.matches(schema.database(), schema.table())) {
                return true;
            }
        }
        return false;
    }
}
