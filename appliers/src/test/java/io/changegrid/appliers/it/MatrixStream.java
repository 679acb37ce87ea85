package io.changegrid.appliers.it;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.json.EventJsonReader;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.StreamParameters;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.Relay;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A reader of a relay's JSON stream ({@code format=json}, one event per line) for one database:
 * each call reads on from where the last stopped and parses the row events with the schemas the
 * binary consumer was given, so both forms of an event can be compared.
 */
final class MatrixStream {

    private static final Pattern ROW_EVENT = Pattern.compile("\"op\":\"(INSERT|UPDATE|DELETE)\"");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String database;
    private final SchemaRegistry schemas = new SchemaRegistry();
    private final List<ChangeEvent> events = new ArrayList<>();
    private long from = -1;

    MatrixStream(Relay relay, String database) {
        this.base = Pipeline.url(relay);
        this.database = database;
    }

    /** The row events read so far. */
    List<ChangeEvent> events() {
        return events;
    }

    /** Reads what the relay holds after the last read; the schemas must be known already. */
    void read(Iterable<ChangeEvent> known) throws IOException, InterruptedException {
        for (ChangeEvent event : known) {
            if (schemas.latest(event.schema().database(), event.schema().table()).isEmpty()) {
                schemas.restore(event.schema());
            }
        }
        String query =
                RelayApi.STREAM
                        + "?"
                        + StreamParameters.FROM
                        + "="
                        + from
                        + "&"
                        + StreamParameters.TIMEOUT_MS
                        + "=0&"
                        + StreamParameters.FORMAT
                        + "=json&"
                        + StreamParameters.MAX_BYTES
                        + "=67108864&"
                        + StreamParameters.TABLES
                        + "="
                        + database
                        + ".*";
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(base + query))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "stream refused: status="
                            + response.statusCode()
                            + ", body="
                            + response.body());
        }
        EventJsonReader reader = new EventJsonReader(schemas);
        response.body()
                .lines()
                .filter(line -> ROW_EVENT.matcher(line).find())
                .map(reader::read)
                .forEach(events::add);
        from =
                Long.parseLong(
                        response.headers()
                                .firstValue(StreamResponse.LAST_SCN)
                                .orElseThrow(
                                        () ->
                                                new IOException(
                                                        "no header: name="
                                                                + StreamResponse.LAST_SCN)));
    }
}
