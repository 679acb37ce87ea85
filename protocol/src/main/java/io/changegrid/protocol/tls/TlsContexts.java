package io.changegrid.protocol.tls;

import java.io.IOException;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty's TLS contexts from a {@link TlsConfig}: a server's ({@link #server}) with its key, trust
 * and client-certificate mode, reloadable in place ({@link #reload}); a client's ({@link #client})
 * checking the server's name against its certificate, as browsers do.
 */
public final class TlsContexts {

    private TlsContexts() {}

    /**
     * A server context: the key, and when client certificates are asked for, the trust store.
     *
     * @throws IOException naming a file that cannot be read
     */
    public static SslContextFactory.Server server(TlsConfig tls) throws IOException {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        configure(factory, tls);
        factory.setWantClientAuth(tls.clientAuth() == ClientAuth.WANT);
        factory.setNeedClientAuth(tls.clientAuth() == ClientAuth.NEED);
        // Clients reach relays by addresses too, which carry no SNI; the client checks names.
        factory.setSniRequired(false);
        return factory;
    }

    /**
     * A client context: the trust store (or the JDK's CAs) and, for mutual TLS, the client's key.
     *
     * @throws IOException naming a file that cannot be read
     */
    public static SslContextFactory.Client client(TlsConfig tls) throws IOException {
        SslContextFactory.Client factory = new SslContextFactory.Client();
        configure(factory, tls);
        factory.setEndpointIdentificationAlgorithm("HTTPS");
        return factory;
    }

    /**
     * Reads {@code tls}'s files again into a running server or client context: new connections use
     * them, open ones keep theirs.
     *
     * @throws IOException naming a file that cannot be read; the context is then left as it was
     */
    public static void reload(SslContextFactory factory, TlsConfig tls) throws IOException {
        // Read first, so that a half-written file fails here and leaves the context untouched.
        var keys = tls.hasKey() ? TlsMaterial.keyStore(tls) : null;
        var trust = tls.hasTrust() ? TlsMaterial.trustStore(tls) : null;
        try {
            factory.reload(
                    f -> {
                        if (keys != null) {
                            f.setKeyStore(keys);
                            f.setKeyManagerPassword(new String(TlsMaterial.keyPassword(tls)));
                        }
                        if (trust != null) {
                            f.setTrustStore(trust);
                        }
                    });
        } catch (Exception e) {
            throw new IOException("TLS context not reloaded: tls=" + tls + ", reason=" + e, e);
        }
    }

    /**
     * A JDK {@link javax.net.ssl.SSLContext} of a client's files, for {@code java.net.http} clients
     * (the CLI): the trust store (or the JDK's CAs) and the client's key, if any.
     *
     * @throws IOException naming a file that cannot be read
     */
    public static javax.net.ssl.SSLContext jdkClient(TlsConfig tls) throws IOException {
        try {
            javax.net.ssl.KeyManager[] keys = null;
            if (tls.hasKey()) {
                var factory =
                        javax.net.ssl.KeyManagerFactory.getInstance(
                                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
                factory.init(TlsMaterial.keyStore(tls), TlsMaterial.keyPassword(tls));
                keys = factory.getKeyManagers();
            }
            javax.net.ssl.TrustManager[] trust = null;
            if (tls.hasTrust()) {
                var factory =
                        javax.net.ssl.TrustManagerFactory.getInstance(
                                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                factory.init(TlsMaterial.trustStore(tls));
                trust = factory.getTrustManagers();
            }
            javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("TLS context not built: tls=" + tls + ", reason=" + e, e);
        }
    }

    private static void configure(SslContextFactory factory, TlsConfig tls) throws IOException {
        if (tls.hasKey()) {
            factory.setKeyStore(TlsMaterial.keyStore(tls));
            String password = new String(TlsMaterial.keyPassword(tls));
            factory.setKeyStorePassword(password);
            factory.setKeyManagerPassword(password);
        }
        if (tls.hasTrust()) {
            factory.setTrustStore(TlsMaterial.trustStore(tls));
        }
    }
}
