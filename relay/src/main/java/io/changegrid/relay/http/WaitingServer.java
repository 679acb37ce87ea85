package io.changegrid.relay.http;

import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.security.AccessControl;
import io.changegrid.relay.security.SecurityHandler;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * What a relay serves while it waits for its source at start (docs/relay.md, "Starting while the
 * source is down"): {@code /v1/health} 503 {@code WAITING_FOR_SOURCE} with the reason, {@code
 * /v1/status} with {@code fetch.state: WAITING_FOR_SOURCE}, and 503 for every other endpoint, which
 * has nothing to serve yet. On the relay's address, with its TLS and access rules; closed before
 * the relay's own server takes the same port.
 */
public final class WaitingServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;

    /**
     * @param port the relay's {@code http.port}; 0 takes a free one, which the relay's own server
     *     then takes over ({@link #port()})
     * @throws UncheckedIOException naming a TLS file that cannot be read
     */
    public WaitingServer(
            String host,
            int port,
            Supplier<RelayStatus> status,
            Supplier<RelayHealth> health,
            TlsConfig tls,
            AccessControl access) {
        QueuedThreadPool threads = new QueuedThreadPool(8, 1);
        threads.setName("relay-http-waiting");
        server = new Server(threads);
        connector = RelayConnector.addTo(server, host, port, tls, access);
        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping(PathSpec.from(RelayApi.HEALTH), new HealthHandler(health));
        routes.addMapping(PathSpec.from(RelayApi.STATUS), new StatusHandler(status));
        routes.addMapping(PathSpec.from("/"), new NotYet());
        server.setHandler(new SecurityHandler(routes, access));
    }

    public void start() throws Exception {
        server.start();
    }

    /** The port listened on. */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("waiting HTTP server did not stop cleanly", e);
        }
    }

    private static final class NotYet extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            JsonResponse.error(
                    response,
                    callback,
                    503,
                    "relay is waiting for its source, nothing to serve yet: path="
                            + request.getHttpURI().getPath());
            return true;
        }
    }
}
