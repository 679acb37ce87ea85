package io.changegrid.bench.relay;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** GETs of a relay's metrics; {@code null} while it is not answering yet. */
public final class RelayHttp {

    private final HttpClient http = HttpClient.newHttpClient();

    /** The text of a 200 answer, or {@code null}. */
    public String text(String url) throws InterruptedException {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null; // not listening yet
        }
    }

    /** The sum of the Prometheus samples whose line starts with {@code prefix}. */
    public static double sum(String metrics, String prefix) {
        return metrics.lines()
                .filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
