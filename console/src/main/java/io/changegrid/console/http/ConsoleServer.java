package io.changegrid.console.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.console.control.GroupOperations;
import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.protocol.tls.TlsConfig;
import java.io.IOException;
import java.util.function.Supplier;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The console's HTTP server: {@code /} and {@code /assets/*} (the pages), {@code GET /api/grid}
 * (what they render), {@code POST /api/groups/...} (control operations), the API behind {@link
 * OperatorAccess}; HTTPS when {@code http.tls.*} gives a key.
 *
 * <p>Threading: Jetty's threads; the handlers read the sampler's published document.
 */
public final class ConsoleServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;
    private final boolean https;

    /**
     * @throws IOException naming a TLS file that cannot be read
     */
    public ConsoleServer(
            String host,
            int port,
            TlsConfig tls,
            OperatorAccess access,
            Supplier<ObjectNode> state,
            GroupOperations operations,
            Runnable written)
            throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("console-http");
        threads.setDaemon(true);
        server = new Server(threads);
        connector = HttpsConnectors.create(server, tls, "http.tls");
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping(PathSpec.from("/api/grid"), new GridStateHandler(state));
        routes.addMapping(
                PathSpec.from(ControlHandler.PREFIX + "*"),
                new ControlHandler(operations, written));
        routes.addMapping(PathSpec.from("/"), new AssetHandler());
        server.setHandler(new AuthenticationGate(access, routes));
        access.watchers().forEach(server::addBean);
        this.https = tls.hasKey();
    }

    public void start() throws Exception {
        server.start();
    }

    /** {@code http://host:port/} (or {@code https://}), with the port actually bound. */
    public String url() {
        return (https ? "https://" : "http://")
                + connector.getHost()
                + ":"
                + connector.getLocalPort()
                + "/";
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("console HTTP server did not stop cleanly", e);
        }
    }
}
