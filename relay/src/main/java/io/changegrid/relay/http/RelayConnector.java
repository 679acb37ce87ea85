package io.changegrid.relay.http;

import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.security.AccessControl;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The relay's one connector, written once for its server ({@link RelayHttpServer}) and the one it
 * serves while waiting for its source ({@link WaitingServer}), so that both listen alike: on the
 * relay's address, HTTPS only with {@code http.tls.*} ({@link HttpsConnectors}), with the access
 * rules' watchers started and stopped with the server.
 */
final class RelayConnector {

    private RelayConnector() {}

    /**
     * Adds the relay's connector to {@code server}.
     *
     * @param port the relay's {@code http.port}; 0 takes a free one
     * @return the connector, to read the port it listens on
     * @throws UncheckedIOException naming a TLS file that cannot be read
     */
    static ServerConnector addTo(
            Server server, String host, int port, TlsConfig tls, AccessControl access) {
        ServerConnector connector;
        try {
            connector = HttpsConnectors.create(server, tls, RelaySettings.HTTP_TLS.prefix());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        access.watchers().forEach(server::addBean);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        return connector;
    }
}
