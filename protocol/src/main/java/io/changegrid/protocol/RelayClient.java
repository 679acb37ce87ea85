package io.changegrid.protocol;

import io.changegrid.events.json.MalformedJsonException;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.protocol.tls.FileWatcher;
import io.changegrid.protocol.tls.RelayCredentials;
import io.changegrid.protocol.tls.TlsContexts;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The one HTTP client of a relay's API ({@link RelayApi}), used by consumers and appliers: the
 * stream request a puller sends and reads itself, and the schema lookups. One Jetty client with
 * threads of its own, kept alive across requests.
 *
 * <p>Relay URLs are base URLs ({@code http://host:port} or {@code https://host:port}), with or
 * without a trailing slash. With {@link RelayCredentials} the client checks {@code https://} relays
 * against its trust store (and their names against their certificates), shows its own certificate
 * when it has one, and sends its bearer token with every request. Its TLS files are re-read when
 * they change (polled every {@link FileWatcher#INTERVAL}): new connections use the new certificate
 * or trust store, open ones keep theirs.
 *
 * <p>Threading: thread-safe; requests from any thread.
 */
public final class RelayClient implements AutoCloseable {

    private final String name;
    private final HttpClient http;
    private final String authorization; // null without a token

    private RelayClient(String name, HttpClient http, String bearerToken) {
        this.name = name;
        this.http = http;
        this.authorization = bearerToken.isEmpty() ? null : "Bearer " + bearerToken;
    }

    /**
     * Starts a client.
     *
     * @param name names its threads ({@code <name>-http})
     * @param connectTimeout how long to wait for a connection
     * @param gzip whether to ask relays for gzip; without, frames come uncompressed and cost no CPU
     *     on either side
     * @throws IOException if the client does not start
     */
    public static RelayClient start(String name, Duration connectTimeout, boolean gzip)
            throws IOException {
        return start(name, connectTimeout, gzip, RelayCredentials.NONE);
    }

    /**
     * Starts a client with credentials: a trust store and client certificate for {@code https://}
     * relays, and a bearer token.
     *
     * @throws IOException if the client does not start, naming a TLS file that cannot be read
     */
    public static RelayClient start(
            String name, Duration connectTimeout, boolean gzip, RelayCredentials credentials)
            throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(8, 1);
        threads.setName(name + "-http");
        threads.setDaemon(true);
        HttpClient client = new HttpClient();
        client.setExecutor(threads);
        client.setConnectTimeout(connectTimeout.toMillis());
        client.setFollowRedirects(false);
        SslContextFactory.Client tls = TlsContexts.client(credentials.tls());
        client.setSslContextFactory(tls);
        if (!credentials.tls().files().isEmpty()) {
            // A renewed client certificate or a rotated CA is used from the next connection on,
            // as a relay re-reads its own files: clients run as long as relays do.
            client.addBean(
                    new FileWatcher(
                            name + "-tls",
                            credentials.tls().files(),
                            FileWatcher.INTERVAL,
                            () -> TlsContexts.reload(tls, credentials.tls())));
        }
        try {
            client.start();
        } catch (Exception e) {
            throw new IOException("HTTP client did not start: name=" + name, e);
        }
        if (!gzip) {
            // Jetty asks for gzip by default, and puts its decoders back at start if none are set:
            // only removing them after start keeps frames uncompressed.
            client.getContentDecoderFactories().clear();
        }
        return new RelayClient(name, client, credentials.bearerToken());
    }

    /**
     * A stream request, not yet sent: {@code GET /v1/stream?from=<from><query>}. The caller sends
     * it and reads the response as it arrives (its body goes straight into the consumer's buffer),
     * and may abort it from another thread.
     *
     * @param relay the relay's base URL
     * @param from the checkpoint SCN ({@link StreamParameters#FROM})
     * @param query the other parameters, each as {@code &name=value}, URL-encoded
     * @param timeoutMillis the total and idle timeout of the request
     */
    public Request stream(URI relay, long from, String query, long timeoutMillis) {
        return authorized(
                        http.newRequest(
                                url(relay, RelayApi.STREAM)
                                        + "?"
                                        + StreamParameters.FROM
                                        + "="
                                        + from
                                        + query))
                .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .idleTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * One schema version: {@code GET /v1/schemas?tableId=X&version=Y}.
     *
     * @throws IOException naming the URL when it is not served or not readable
     */
    public TableSchema schema(URI relay, int tableId, int version, Duration timeout)
            throws IOException, InterruptedException {
        String url =
                url(relay, RelayApi.SCHEMAS)
                        + "?"
                        + RelayApi.TABLE_ID
                        + "="
                        + tableId
                        + "&"
                        + RelayApi.VERSION
                        + "="
                        + version;
        String body = get(url, timeout, "schema");
        try {
            return SchemaJson.fromJson(body);
        } catch (MalformedJsonException e) {
            throw new IOException(
                    "schema not readable: url=" + url + ", reason=" + e.getMessage(), e);
        }
    }

    /**
     * Every schema version the relay serves, as its JSON document {@code {"schemas":[...]}}: {@code
     * GET /v1/schemas}.
     *
     * @throws IOException naming the URL when it is not served
     */
    public String schemas(URI relay, Duration timeout) throws IOException, InterruptedException {
        return get(url(relay, RelayApi.SCHEMAS), timeout, "schemas");
    }

    /** Stops the client and its threads; requests in flight fail. */
    @Override
    public void close() throws IOException {
        try {
            http.stop();
        } catch (Exception e) {
            throw new IOException("HTTP client did not stop cleanly: name=" + name, e);
        }
    }

    @Override
    public String toString() {
        return "RelayClient[" + name + "]";
    }

    private String get(String url, Duration timeout, String what)
            throws IOException, InterruptedException {
        ContentResponse response;
        try {
            response =
                    authorized(http.newRequest(url))
                            .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                            .send();
        } catch (TimeoutException | ExecutionException e) {
            throw new IOException(what + " not fetched: url=" + url + ", reason=" + e, e);
        }
        if (response.getStatus() != 200) {
            throw new IOException(
                    what
                            + " not served: url="
                            + url
                            + ", status="
                            + response.getStatus()
                            + ", body="
                            + response.getContentAsString());
        }
        return response.getContentAsString();
    }

    /** The request with the bearer token, when there is one. */
    private Request authorized(Request request) {
        return authorization == null
                ? request
                : request.headers(headers -> headers.put(HttpHeader.AUTHORIZATION, authorization));
    }

    /** {@code relay} and {@code path} joined by one slash. */
    private static String url(URI relay, String path) {
        String base = relay.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    }
}
