package io.changegrid.console.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.protocol.RelayApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * Asks one relay for its {@code /v1/status} and {@code /metrics}.
 *
 * <p>Threading: thread-safe.
 */
final class RelayProbe {

    static final String EVENTS = "changegrid_relay_published_events_total";
    static final String BYTES = "changegrid_relay_published_bytes_total";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;
    private final String token;

    /**
     * @param token the bearer token secured relays know the console by ({@code relay.token}); empty
     *     sends none
     */
    RelayProbe(HttpClient http, Duration timeout, String token) {
        this.http = http;
        this.timeout = timeout;
        this.token = token;
    }

    /** What {@code endpoint} answers now; an unreachable relay is a reading with an error. */
    RelayReading probe(String endpoint) throws InterruptedException {
        String base =
                endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        try {
            JsonNode status = JSON.readTree(get(base + RelayApi.STATUS));
            String metrics = get(base + RelayApi.METRICS);
            OptionalDouble events = PrometheusText.sum(metrics, EVENTS);
            OptionalDouble bytes = PrometheusText.sum(metrics, BYTES);
            return new RelayReading(
                    status, events.orElse(Double.NaN), bytes.orElse(Double.NaN), null);
        } catch (IOException | IllegalArgumentException e) {
            return new RelayReading(null, Double.NaN, Double.NaN, e.toString());
        }
    }

    private String get(String url) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
        if (!token.isEmpty()) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response =
                http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + url);
        }
        return response.body();
    }

    /**
     * One relay's answer.
     *
     * @param status its status document; null if it did not answer
     * @param eventsPublished its published-events counter; NaN if unknown
     * @param bytesPublished its published-bytes counter; NaN if unknown
     * @param error why it did not answer; null otherwise
     */
    record RelayReading(
            JsonNode status, double eventsPublished, double bytesPublished, String error) {}
}
