package io.changegrid.console.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.console.control.GroupOperations;
import java.util.function.Supplier;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The console's HTTP server: {@code /} and {@code /assets/*} (the pages), {@code GET /api/grid}
 * (what they render), {@code POST /api/groups/...} (control operations), all behind the {@link
 * RequestAuthenticator}.
 *
 * <p>Threading: Jetty's threads; the handlers read the sampler's published document.
 */
public final class ConsoleServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;

    public ConsoleServer(
            String host,
            int port,
            RequestAuthenticator authenticator,
            Supplier<ObjectNode> state,
            GroupOperations operations,
            Runnable written) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("console-http");
        threads.setDaemon(true);
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping(PathSpec.from("/api/grid"), new GridStateHandler(state));
        routes.addMapping(
                PathSpec.from(ControlHandler.PREFIX + "*"),
                new ControlHandler(operations, written));
        routes.addMapping(PathSpec.from("/"), new AssetHandler());
        server.setHandler(new AuthenticationGate(authenticator, routes));
    }

    public void start() throws Exception {
        server.start();
    }

    /** {@code http://host:port/}, with the port actually bound. */
    public String url() {
        return "http://" + connector.getHost() + ":" + connector.getLocalPort() + "/";
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
