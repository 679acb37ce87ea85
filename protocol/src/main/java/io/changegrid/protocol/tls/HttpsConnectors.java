package io.changegrid.protocol.tls;

import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The connector of every HTTP endpoint we serve (a relay's API, a consumer group member's status):
 * plain HTTP without a key, else HTTPS whose certificate, key and trusted CAs are re-read when
 * their files change ({@link FileWatcher}, polling every {@link #RELOAD_INTERVAL}), so a renewed
 * certificate needs no restart. With HTTPS, each request carries its TLS session data (and the
 * client's certificates) as {@link org.eclipse.jetty.io.EndPoint.SslSessionData#ATTRIBUTE}.
 */
public final class HttpsConnectors {

    /** How often TLS files are looked at for changes. */
    public static final Duration RELOAD_INTERVAL = FileWatcher.INTERVAL;

    private HttpsConnectors() {}

    /**
     * A connector of {@code server}, not yet added to it.
     *
     * @param name names the watcher's thread and log lines, e.g. the settings prefix
     * @throws IOException naming a TLS file that cannot be read
     */
    public static ServerConnector create(Server server, TlsConfig tls, String name)
            throws IOException {
        if (!tls.hasKey()) {
            return new ServerConnector(server);
        }
        SslContextFactory.Server context = TlsContexts.server(tls);
        HttpConfiguration https = new HttpConfiguration();
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // The client checks the server's name against the certificate; the server has no reason
        // to refuse a request whose Host differs from a certificate name (an address, a proxy).
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        ServerConnector connector =
                new ServerConnector(
                        server,
                        new SslConnectionFactory(context, "http/1.1"),
                        new HttpConnectionFactory(https));
        server.addBean(
                new FileWatcher(
                        name,
                        tls.files(),
                        RELOAD_INTERVAL,
                        () -> TlsContexts.reload(context, tls)));
        return connector;
    }
}
