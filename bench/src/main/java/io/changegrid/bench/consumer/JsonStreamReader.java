package io.changegrid.bench.consumer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.StreamParameters;
import io.changegrid.protocol.StreamResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.SSLContext;

/**
 * What a consumer in another language does: long-polls {@code /v1/stream?format=json} and parses
 * every line with a streaming JSON parser, counting row changes, until the relay's last SCN reaches
 * the end of the range. Retries while the relay is not listening yet (it may start after this
 * process).
 *
 * <p>Threading: one thread.
 */
final class JsonStreamReader {

    private static final long RETRY_LIMIT_NANOS = Duration.ofMinutes(2).toNanos();

    private final HttpClient http;
    private final JsonFactory factory = new JsonFactory();
    private final String streamUrl;
    private final boolean gzip;
    private final String authorization; // null: no token

    /**
     * @param relay the relay's base URL
     * @param subscription the query's subscription part: {@code &p=..&n=..}, {@code &filter=..} or
     *     empty
     * @param tls the context trusting {@code https://} relays
     * @param token the bearer token, or null
     */
    JsonStreamReader(
            String relay, String subscription, boolean gzip, SSLContext tls, String token) {
        this.http = HttpClient.newBuilder().sslContext(tls).build();
        this.authorization = token == null ? null : "Bearer " + token;
        this.streamUrl =
                relay
                        + RelayApi.STREAM
                        + "?"
                        + StreamParameters.FORMAT
                        + "=json&"
                        + StreamParameters.TIMEOUT_MS
                        + "=1000&"
                        + StreamParameters.MAX_BYTES
                        + "=4194304"
                        + subscription;
        this.gzip = gzip;
    }

    /** The query part for a policies filter. */
    static String filter(String filterJson) {
        return "&"
                + StreamParameters.FILTER
                + "="
                + URLEncoder.encode(filterJson, StandardCharsets.UTF_8);
    }

    /** Reads until the checkpoint reaches {@code endScn}, reporting to {@code meter}. */
    void read(long endScn, SelfMeter meter) throws IOException, InterruptedException {
        long checkpoint = -1;
        long failingSince = 0;
        while (checkpoint < endScn) {
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(streamUrl + "&from=" + checkpoint));
            if (gzip) {
                request.header("Accept-Encoding", "gzip");
            }
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<InputStream> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
                failingSince = 0;
            } catch (IOException e) {
                failingSince = failingSince == 0 ? System.nanoTime() : failingSince;
                if (System.nanoTime() - failingSince > RETRY_LIMIT_NANOS) {
                    throw new IOException("relay not reachable for 2 minutes: url=" + streamUrl, e);
                }
                Thread.sleep(10); // the relay is starting; the consumer library backs off too
                continue;
            }
            if (response.statusCode() != 200) {
                throw new IOException(
                        "relay answered "
                                + response.statusCode()
                                + ": url="
                                + streamUrl
                                + ", from="
                                + checkpoint
                                + ", body="
                                + new String(
                                        response.body().readAllBytes(), StandardCharsets.UTF_8));
            }
            InputStream body =
                    response.headers().firstValue("Content-Encoding").orElse("").equals("gzip")
                            ? new GZIPInputStream(response.body(), 1 << 16)
                            : response.body();
            parse(body, meter);
            checkpoint =
                    Long.parseLong(
                            response.headers().firstValue(StreamResponse.LAST_SCN).orElseThrow());
        }
    }

    private void parse(InputStream body, SelfMeter meter) throws IOException {
        try (JsonParser parser = factory.createParser(body)) {
            long start = 0;
            boolean any = false;
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                boolean row = false;
                while (parser.nextToken() != JsonToken.END_OBJECT) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if ("op".equals(field)) {
                        String op = parser.getText();
                        row = op.equals("INSERT") || op.equals("UPDATE") || op.equals("DELETE");
                    }
                    if (value.isStructStart()) {
                        parser.skipChildren();
                    }
                }
                long end = parser.currentLocation().getByteOffset();
                if (row) {
                    meter.event((int) (end - start));
                    any = true;
                }
                start = end;
            }
            if (any) {
                meter.transactionEnd();
            }
        }
    }
}
