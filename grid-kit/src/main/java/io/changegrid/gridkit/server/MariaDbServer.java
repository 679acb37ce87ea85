package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private {@code mariadbd} for one test class, run from the installed MariaDB server (10.11 on
 * Debian 12): its own data directory, port on {@code 127.0.0.1}, socket and error log, a binlog
 * ({@code ROW}/{@code FULL} unless {@link MariaDbConfig} says otherwise) and the replication user
 * of {@link SourceDatabase#user()}. Root has an empty password and all privileges.
 *
 * <pre>{@code
 * try (var server = MariaDbServer.start()) {
 *     server.execute("CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY)");
 *     var client = new BinaryLogClient(server.host(), server.port(), server.user(), server.password());
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops the server (SIGTERM, then SIGKILL after {@link
 * MariaDbConfig#shutdownTimeout()}) and deletes its directory; it also runs when {@link #start}
 * fails halfway, and at JVM exit for servers still open. Data directories live under {@code
 * ${java.io.tmpdir}/changegrid-mariadb/}; those of a JVM that was killed are removed, with their
 * server, by the next start.
 *
 * <p>Thread-safe after {@link #start} returns; {@link #close()} may be called from any thread.
 */
public final class MariaDbServer implements SourceDatabase {
    private static final Logger LOG = LoggerFactory.getLogger(MariaDbServer.class);

    static final ScratchArea SCRATCH =
            ScratchArea.inTempDir("changegrid-mariadb", MariaDbBinaries.SERVER);

    /** The directory that holds every private server's scratch directory on this machine. */
    public static Path scratchRoot() {
        return SCRATCH.root();
    }

    private static final String ROOT_USER = "root";
    private static final String ROOT_PASSWORD = "";
    private static final int PORT_ATTEMPTS = 5;
    private static final int LOG_TAIL_LINES = 40;
    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final MariaDbConfig config;
    private final MariaDbBinaries binaries;
    private final ScratchDirectory scratch;
    private final MariaDbLayout layout;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Process process;
    private volatile int port;

    private MariaDbServer(
            MariaDbConfig config, MariaDbBinaries binaries, ScratchDirectory scratch) {
        this.config = config;
        this.binaries = binaries;
        this.scratch = scratch;
        this.layout = new MariaDbLayout(scratch.path());
    }

    /** Starts a server with {@link MariaDbConfig#defaults()}. */
    public static MariaDbServer start() {
        return start(MariaDbConfig.defaults());
    }

    /**
     * Starts a server and returns once root can connect over JDBC and the replication user exists.
     *
     * @throws FixtureStartException when {@code mariadbd} is not installed, or fails to start; the
     *     message carries the tail of the server's error log
     */
    public static MariaDbServer start(MariaDbConfig config) {
        var binaries = MariaDbBinaries.locate();
        var server = new MariaDbServer(config, binaries, SCRATCH.create("mariadbd-"));
        ExitGuard.register(server);
        try {
            server.boot();
            return server;
        } catch (RuntimeException | Error e) {
            try {
                server.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private void boot() {
        var startedNanos = System.nanoTime();
        install();
        var deadline = Deadline.after(config.startupTimeout());
        for (int attempt = 1; !launchOnFreePort(deadline); attempt++) {
            if (attempt == PORT_ATTEMPTS) {
                throw failure("mariadbd found no free port: attempts=" + PORT_ATTEMPTS);
            }
            LOG.info("port taken before mariadbd could bind it, picking another: port={}", port);
        }
        createReplicationUser();
        LOG.info(
                "mariadbd started: port={}, pid={}, serverId={}, binlogFormat={}, binlogRowImage={},"
                        + " dataDir={}, millis={}",
                port,
                process.pid(),
                config.serverId(),
                config.binlogFormat(),
                config.binlogRowImage(),
                layout.dataDir(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
    }

    private void install() {
        var command = MariaDbCommand.install(binaries, layout, runningAsRoot());
        var deadline = Deadline.after(config.startupTimeout());
        try {
            var installer =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(layout.installLog().toFile())
                            .start();
            if (!installer.waitFor(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS)) {
                installer.destroyForcibly();
                throw failure(
                        MariaDbBinaries.INSTALL_DB + " timed out: after=" + deadline.budget(),
                        layout.installLog());
            }
            if (installer.exitValue() != 0) {
                throw failure(
                        MariaDbBinaries.INSTALL_DB + " failed: exitCode=" + installer.exitValue(),
                        layout.installLog());
            }
        } catch (IOException e) {
            throw new FixtureStartException(
                    "cannot run " + MariaDbBinaries.INSTALL_DB + ": command=" + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FixtureStartException("interrupted in " + MariaDbBinaries.INSTALL_DB, e);
        }
    }

    /** Launches on a fresh port; false when another process took that port first. */
    private boolean launchOnFreePort(Deadline deadline) {
        port = FreePort.pick();
        try {
            // A previous attempt's log would otherwise answer the bind-failure check below.
            Files.deleteIfExists(layout.errorLog());
            process =
                    new ProcessBuilder(
                                    MariaDbCommand.server(
                                            binaries, config, layout, port, runningAsRoot()))
                            .redirectErrorStream(true)
                            .redirectOutput(Redirect.appendTo(layout.consoleLog().toFile()))
                            .start();
        } catch (IOException e) {
            throw new FixtureStartException(
                    "cannot run " + binaries.server() + ": dataDir=" + layout.dataDir(), e);
        }
        scratch.recordServer(process.pid());
        return awaitReady(deadline);
    }

    /** Polls until root can log in; false if the server died because its port was taken. */
    private boolean awaitReady(Deadline deadline) {
        String lastRefusal = "none";
        while (true) {
            if (!process.isAlive()) {
                if (lostPortRace()) {
                    return false;
                }
                throw failure("mariadbd exited during start: exitCode=" + process.exitValue());
            }
            try {
                if (isOurs()) {
                    return true;
                }
                lastRefusal = "another server answered on the port";
            } catch (SQLException e) {
                lastRefusal = e.getMessage();
            }
            if (deadline.expired()) {
                throw failure(
                        "mariadbd did not accept JDBC connections in time: after="
                                + deadline.budget()
                                + ", lastError="
                                + lastRefusal);
            }
            waitForExit(process, POLL_INTERVAL);
        }
    }

    /**
     * Whether the server that answers is this one, not one that grabbed the port between {@link
     * FreePort#pick()} and our bind: ours is the one whose socket is in our directory.
     */
    private boolean isOurs() throws SQLException {
        var properties = new Properties();
        properties.setProperty("user", ROOT_USER);
        properties.setProperty("password", ROOT_PASSWORD);
        properties.setProperty("connectTimeout", "1000");
        try (var connection = DriverManager.getConnection(jdbcUrl(), properties);
                var statement = connection.createStatement();
                var result = statement.executeQuery("SELECT @@socket")) {
            return result.next() && layout.socket().toString().equals(result.getString(1));
        }
    }

    private boolean lostPortRace() {
        try {
            var log = Files.readString(layout.errorLog());
            return log.contains("Address already in use") || log.contains("Bind on TCP/IP port");
        } catch (IOException e) {
            return false; // no readable log: not a diagnosable bind failure
        }
    }

    private void createReplicationUser() {
        try {
            execute(ReplicationGrants.statements().toArray(String[]::new));
        } catch (SQLException e) {
            throw failure("cannot create replication user: " + e.getMessage());
        }
    }

    private FixtureStartException failure(String what) {
        return failure(what, layout.errorLog());
    }

    private FixtureStartException failure(String what, Path log) {
        var message = new StringBuilder(what);
        message.append(": port=").append(port).append(", dataDir=").append(layout.dataDir());
        message.append("\n  tail of ").append(log).append(":\n");
        message.append(LogTail.of(log, LOG_TAIL_LINES));
        if (log.equals(layout.errorLog()) && Files.exists(layout.consoleLog())) {
            message.append("\n  tail of ").append(layout.consoleLog()).append(":\n");
            message.append(LogTail.of(layout.consoleLog(), LOG_TAIL_LINES));
        }
        return new FixtureStartException(message.toString());
    }

    private static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    @Override
    public Flavor flavor() {
        return Flavor.MARIADB;
    }

    /** Always {@code 127.0.0.1}: the server listens on loopback only. */
    @Override
    public String host() {
        return FreePort.HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public long serverId() {
        return config.serverId();
    }

    /** {@code root}, with all privileges. */
    @Override
    public String rootUser() {
        return ROOT_USER;
    }

    /** Empty: root has no password on a private test server. */
    @Override
    public String rootPassword() {
        return ROOT_PASSWORD;
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://" + host() + ":" + port + "/" + database;
    }

    /** The settings this server was started with. */
    public MariaDbConfig config() {
        return config;
    }

    /** The server's data directory (binlog files included); gone after {@link #close()}. */
    public Path dataDir() {
        return layout.dataDir();
    }

    /** The server's error log, for a test that wants to show it; gone after {@link #close()}. */
    public Path errorLog() {
        return layout.errorLog();
    }

    /** Whether the server process runs: false after {@link #crash()} until {@link #restart()}. */
    public boolean isRunning() {
        var running = process;
        return running != null && running.isAlive();
    }

    /**
     * {@code kill -9} of the server, as a crash: no shutdown, its data directory and port stay, so
     * {@link #restart()} brings the same server back (InnoDB and binlog crash recovery). For chaos
     * runs; the clients see their connections drop.
     *
     * @throws IllegalStateException if the process survives SIGKILL
     */
    public void crash() {
        var running = process;
        running.destroyForcibly();
        if (!waitForExit(running, KILL_WAIT)) {
            throw new IllegalStateException(
                    "mariadbd survived SIGKILL: pid=" + running.pid() + ", dataDir=" + dataDir());
        }
        LOG.info("mariadbd killed (SIGKILL): port={}, pid={}", port, running.pid());
    }

    /**
     * Starts the server again on its data directory and port after {@link #crash()}; returns once
     * root can connect.
     *
     * @throws IllegalStateException if the server is still running
     * @throws FixtureStartException if it does not come back, or another process took its port
     */
    public void restart() {
        if (closed.get() || process.isAlive()) {
            throw new IllegalStateException(
                    "restart needs a crashed server: running="
                            + process.isAlive()
                            + ", closed="
                            + closed.get());
        }
        var startedNanos = System.nanoTime();
        try {
            process =
                    new ProcessBuilder(
                                    MariaDbCommand.server(
                                            binaries, config, layout, port, runningAsRoot()))
                            .redirectErrorStream(true)
                            .redirectOutput(Redirect.appendTo(layout.consoleLog().toFile()))
                            .start();
        } catch (IOException e) {
            throw new FixtureStartException(
                    "cannot run " + binaries.server() + ": dataDir=" + layout.dataDir(), e);
        }
        scratch.recordServer(process.pid());
        if (!awaitReady(Deadline.after(config.startupTimeout()))) {
            throw failure("mariadbd could not bind its port again: port=" + port);
        }
        LOG.info(
                "mariadbd restarted: port={}, pid={}, millis={}",
                port,
                process.pid(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
    }

    /**
     * Stops the server and deletes its directory. Idempotent; never leaves a process behind: one
     * that ignores SIGTERM for {@link MariaDbConfig#shutdownTimeout()} is killed.
     *
     * @throws IllegalStateException if the process survives SIGKILL
     * @throws UncheckedIOException if the directory cannot be deleted
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        var startedNanos = System.nanoTime();
        RuntimeException failure = null;
        try {
            stop();
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            scratch.delete();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        ExitGuard.unregister(this);
        if (failure != null) {
            throw failure;
        }
        LOG.info(
                "mariadbd stopped and removed: port={}, dataDir={}, millis={}",
                port,
                layout.dataDir(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
    }

    /**
     * Kills the server with SIGKILL, as a crash would: no shutdown, nothing flushed that was not
     * already. The directory stays until {@link #close()}.
     *
     * @throws IllegalStateException if the process survives SIGKILL
     */
    public void kill() {
        var running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        running.destroyForcibly();
        if (!waitForExit(running, KILL_WAIT)) {
            throw new IllegalStateException(
                    "mariadbd survived SIGKILL: pid=" + running.pid() + ", dataDir=" + dataDir());
        }
        LOG.info("mariadbd killed: port={}, pid={}", port, running.pid());
    }

    private void stop() {
        var running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        // SIGTERM is mariadbd's clean shutdown; it needs no connection, so it works even when
        // the server is wedged or root's password was changed by a test.
        running.destroy();
        if (waitForExit(running, config.shutdownTimeout())) {
            return;
        }
        LOG.warn(
                "mariadbd ignored SIGTERM, killing it: pid={}, waited={}",
                running.pid(),
                config.shutdownTimeout());
        running.destroyForcibly();
        if (!waitForExit(running, KILL_WAIT)) {
            throw new IllegalStateException(
                    "mariadbd survived SIGKILL: pid=" + running.pid() + ", dataDir=" + dataDir());
        }
    }

    /** Waits up to {@code timeout} for the process to exit; true if it did. */
    private static boolean waitForExit(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            // Keep the interrupt for the caller; a dying test must still not leave a server.
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return !process.isAlive();
        }
    }

    @Override
    public String toString() {
        return "MariaDbServer[port=" + port + ", dataDir=" + layout.dataDir() + "]";
    }
}
