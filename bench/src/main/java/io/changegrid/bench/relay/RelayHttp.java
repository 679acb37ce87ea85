package io.changegrid.bench.relay;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** GETs of a relay's metrics; {@code null} while it is not answering yet. */
public final class RelayHttp {

    private final HttpClient http;
    private final String authorization; // null: no token

    /** Plain relays. */
    public RelayHttp() {
        this(BenchTls.NONE);
    }

    /** Relays of {@code tls}: trusted by its CA, asked with its token. */
    public RelayHttp(BenchTls tls) {
        this.http = HttpClient.newBuilder().sslContext(tls.sslContext()).build();
        this.authorization = tls.authorization();
    }

    /** The text of a 200 answer, or {@code null}. */
    public String text(String url) throws InterruptedException {
        try {
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<String> response =
                    http.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
