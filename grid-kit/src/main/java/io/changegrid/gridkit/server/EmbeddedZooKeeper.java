package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone ZooKeeper server inside the test JVM, from the real ZooKeeper jar: its own data
 * directory and a free port on {@code 127.0.0.1}.
 *
 * <pre>{@code
 * try (var zk = EmbeddedZooKeeper.start()) {
 *     var client = new ZooKeeper(zk.connectString(), 10_000, event -> {});
 * }
 * }</pre>
 *
 * <p>Built from {@link ZooKeeperServer} and {@link ServerCnxnFactory} rather than {@code
 * ZooKeeperServerMain}: that way there is no admin server (Jetty on port 8080) and no {@code
 * System.exit} on errors, and the port is bound before {@link #start()} returns. Tick time is
 * {@value #TICK_MILLIS} ms, so sessions may be as short as 1 s for expiry tests, and as long as
 * {@value #MAX_SESSION_TIMEOUT_MILLIS} ms for clients (Helix) that ask for 30 s.
 *
 * <p>Thread-safe after {@link #start()} returns.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    private static final ScratchArea SCRATCH = ScratchArea.inTempDir("changegrid-zookeeper", null);

    static final int TICK_MILLIS = 500;
    static final int MAX_SESSION_TIMEOUT_MILLIS = 60_000;
    private static final int MAX_CLIENT_CONNECTIONS = 100;
    private static final int PORT_ATTEMPTS = 5;
    private static final String X509_PROVIDER =
            ProviderRegistry.AUTHPROVIDER_PROPERTY_PREFIX + "x509";

    private final ScratchDirectory scratch;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile ZooKeeperServer server;
    private volatile ServerCnxnFactory connections;

    private EmbeddedZooKeeper(ScratchDirectory scratch) {
        this.scratch = scratch;
    }

    /**
     * Starts a server; it accepts clients when this returns.
     *
     * @throws FixtureStartException if it cannot start
     */
    public static EmbeddedZooKeeper start() {
        return start(false);
    }

    /**
     * Starts a server whose only client port speaks TLS (ZooKeeper's {@code secureClientPort}, on
     * Netty). Its key, trust store and client-certificate mode are ZooKeeper's own server settings,
     * which it reads from the JVM's {@code zookeeper.ssl.*} properties at each connection: set them
     * before clients connect ({@code zookeeper.ssl.keyStore.location}, {@code .type}, {@code
     * .password}, {@code zookeeper.ssl.trustStore.*}, {@code zookeeper.ssl.clientAuth}).
     *
     * @throws FixtureStartException if it cannot start
     */
    public static EmbeddedZooKeeper startSecure() {
        // A TLS connection is authenticated by its client certificate ("x509"), a provider
        // ZooKeeper registers only when configured, as zoo.cfg's authProvider.x509 does.
        System.setProperty(X509_PROVIDER, X509AuthenticationProvider.class.getName());
        ProviderRegistry.addOrUpdateProvider(X509_PROVIDER);
        return start(true);
    }

    private static EmbeddedZooKeeper start(boolean secure) {
        var zooKeeper = new EmbeddedZooKeeper(SCRATCH.create("zookeeper-"));
        ExitGuard.register(zooKeeper);
        try {
            zooKeeper.boot(secure);
            return zooKeeper;
        } catch (RuntimeException | Error e) {
            try {
                zooKeeper.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private void boot(boolean secure) {
        var dataDir = dataDir().toFile();
        try {
            server = new ZooKeeperServer(dataDir, dataDir, TICK_MILLIS);
            server.setMaxSessionTimeout(MAX_SESSION_TIMEOUT_MILLIS);
            connections = bindFreePort(secure);
            connections.startup(server);
        } catch (IOException e) {
            throw new FixtureStartException("cannot start ZooKeeper: dataDir=" + dataDir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FixtureStartException("interrupted starting ZooKeeper", e);
        }
        LOG.info("ZooKeeper started: connectString={}, dataDir={}", connectString(), dataDir);
    }

    /** Binds a fresh port, picking again if another process took it first. */
    private static ServerCnxnFactory bindFreePort(boolean secure) throws IOException {
        for (int attempt = 1; ; attempt++) {
            var address = new InetSocketAddress(FreePort.loopback(), FreePort.pick());
            try {
                if (!secure) {
                    return ServerCnxnFactory.createFactory(address, MAX_CLIENT_CONNECTIONS);
                }
                ServerCnxnFactory factory = nettyFactory();
                factory.configure(address, MAX_CLIENT_CONNECTIONS, -1, true);
                return factory;
            } catch (BindException e) {
                if (attempt == PORT_ATTEMPTS) {
                    throw new FixtureStartException(
                            "ZooKeeper found no free port: attempts=" + PORT_ATTEMPTS, e);
                }
                LOG.info("port taken before ZooKeeper could bind it, picking another: {}", address);
            }
        }
    }

    /**
     * A Netty connection factory, the only kind that speaks TLS. ZooKeeper chooses the kind by a
     * JVM property only; it is set for this one call and put back, so other servers are unchanged.
     */
    private static synchronized ServerCnxnFactory nettyFactory() throws IOException {
        String key = ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY;
        String previous = System.getProperty(key);
        System.setProperty(key, "org.apache.zookeeper.server.NettyServerCnxnFactory");
        try {
            return ServerCnxnFactory.createFactory();
        } finally {
            if (previous == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, previous);
            }
        }
    }

    /** {@code 127.0.0.1:port}, for {@code new ZooKeeper(connectString, ...)} or Helix. */
    public String connectString() {
        return FreePort.HOST + ":" + port();
    }

    /** The client port. */
    public int port() {
        return connections.getLocalPort();
    }

    /** Snapshots and transaction logs; gone after {@link #close()}. */
    public Path dataDir() {
        return scratch.resolve("data");
    }

    /**
     * Stops the server, closing all client sessions, and deletes its data; idempotent.
     *
     * @throws UncheckedIOException if the data cannot be deleted
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (connections != null) {
                connections.shutdown(); // also shuts the server down
            }
            if (server != null && server.getZKDatabase() != null) {
                // Server shutdown leaves the transaction log open (ZooKeeperServerMain closes it
                // itself); without this each server would leak file handles into the test JVM.
                server.getZKDatabase().close();
            }
        } catch (IOException e) {
            LOG.warn("cannot close ZooKeeper database, deleting it anyway: dir={}", dataDir(), e);
        } finally {
            ExitGuard.unregister(this);
            scratch.delete();
        }
    }

    @Override
    public String toString() {
        return "EmbeddedZooKeeper[dataDir=" + dataDir() + "]";
    }
}
