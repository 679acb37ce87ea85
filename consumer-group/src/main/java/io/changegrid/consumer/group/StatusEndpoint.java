package io.changegrid.consumer.group;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.changegrid.consumer.group.config.GroupSettings;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.protocol.tls.TlsConfig;
import java.io.IOException;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A group member's HTTP status endpoint on Jetty's core API: {@code GET /v1/status} answers the
 * member's {@link GroupStatus} as JSON ({@link GroupStatusJson}), {@code GET /metrics} its meters
 * in Prometheus text format ({@link io.changegrid.consumer.group.metrics.MemberMetrics}); any other
 * path a JSON 404. With {@code cluster.status.tls.*} it speaks HTTPS, and with {@code clientAuth:
 * need} only clients whose certificate the trust store accepts connect (docs/security.md).
 *
 * <p>Threading: Jetty's threads call the status and metrics suppliers, which must be thread-safe.
 */
final class StatusEndpoint implements AutoCloseable {

    /** The path Prometheus scrapes, as on a relay. */
    static final String METRICS = "/metrics";

    private final Server server;
    private final ServerConnector connector;

    private final boolean https;

    StatusEndpoint(
            String host,
            int port,
            TlsConfig tls,
            Supplier<GroupStatus> status,
            Supplier<String> metrics)
            throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(4, 1);
        threads.setName("group-status-http");
        threads.setDaemon(true);
        server = new Server(threads);
        https = tls.hasKey();
        // Plain or HTTPS (re-read on change), as a relay's API: one connector shape for both.
        connector = HttpsConnectors.create(server, tls, GroupSettings.STATUS_TLS.prefix());
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new StatusHandler(status, metrics));
    }

    void start() throws Exception {
        server.start();
    }

    /** {@code http(s)://host:port}, with the port actually bound. */
    String url() {
        return (https ? "https://" : "http://")
                + connector.getHost()
                + ":"
                + connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("status endpoint did not stop cleanly", e);
        }
    }

    private static final class StatusHandler extends Handler.Abstract.NonBlocking {

        private final Supplier<GroupStatus> status;
        private final Supplier<String> metrics;

        StatusHandler(Supplier<GroupStatus> status, Supplier<String> metrics) {
            this.status = status;
            this.metrics = metrics;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPath();
            if (!RelayApi.STATUS.equals(path) && !METRICS.equals(path)) {
                send(response, callback, 404, error("no such endpoint: path=" + path));
            } else if (!"GET".equals(request.getMethod())) {
                response.getHeaders().put(HttpHeader.ALLOW, "GET");
                send(
                        response,
                        callback,
                        405,
                        error(
                                "method not allowed: method="
                                        + request.getMethod()
                                        + ", allowed=GET"));
            } else if (METRICS.equals(path)) {
                response.setStatus(200);
                response.getHeaders()
                        .put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
                Content.Sink.write(response, true, metrics.get(), callback);
            } else {
                send(response, callback, 200, GroupStatusJson.write(status.get()));
            }
            return true;
        }

        private static String error(String message) {
            return "{\"error\":\""
                    + new String(JsonStringEncoder.getInstance().quoteAsString(message))
                    + "\"}";
        }

        private static void send(Response response, Callback callback, int code, String json) {
            response.setStatus(code);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            Content.Sink.write(response, true, json, callback);
        }
    }
}
