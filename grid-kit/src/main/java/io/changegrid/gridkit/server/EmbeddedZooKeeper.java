package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
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
        var zooKeeper = new EmbeddedZooKeeper(SCRATCH.create("zookeeper-"));
        ExitGuard.register(zooKeeper);
        try {
            zooKeeper.boot();
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

    private void boot() {
        var dataDir = dataDir().toFile();
        try {
            server = new ZooKeeperServer(dataDir, dataDir, TICK_MILLIS);
            server.setMaxSessionTimeout(MAX_SESSION_TIMEOUT_MILLIS);
            connections = bindFreePort();
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
    private static ServerCnxnFactory bindFreePort() throws IOException {
        for (int attempt = 1; ; attempt++) {
            var address = new InetSocketAddress(FreePort.loopback(), FreePort.pick());
            try {
                return ServerCnxnFactory.createFactory(address, MAX_CLIENT_CONNECTIONS);
            } catch (BindException e) {
                if (attempt == PORT_ATTEMPTS) {
                    throw new FixtureStartException(
                            "ZooKeeper found no free port: attempts=" + PORT_ATTEMPTS, e);
                }
                LOG.info("port taken before ZooKeeper could bind it, picking another: {}", address);
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
