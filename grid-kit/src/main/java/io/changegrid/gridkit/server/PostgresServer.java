package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private PostgreSQL server for one test class, run from the installed server ({@code
 * /usr/lib/postgresql/<version>/bin}, the highest version there): its own data directory, a free
 * port on {@code 127.0.0.1}, its socket in its own directory, and the settings logical decoding
 * needs ({@code wal_level=logical}, replication slots and WAL senders), with {@code fsync=off}.
 * Superuser {@code postgres}, trust authentication, replication connections allowed.
 *
 * <p>PostgreSQL refuses to run as root, so when the tests run as root {@code initdb} and {@code
 * pg_ctl} run as the {@code postgres} OS user ({@code runuser -u postgres --}) and the data
 * directory belongs to that user.
 *
 * <p>{@link #close()} stops the server ({@code pg_ctl stop -m immediate}, then SIGKILL) and deletes
 * its directory; it also runs when {@link #start} fails halfway, and at JVM exit. Directories live
 * under {@code ${java.io.tmpdir}/changegrid-postgres/}; those of a JVM that was killed are removed,
 * with their server, by the next start.
 *
 * <p>Thread-safe after {@link #start} returns; every helper opens its own connection.
 */
public final class PostgresServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);

    static final ScratchArea SCRATCH = ScratchArea.inTempDir("changegrid-postgres", "postgres");

    private static final Path INSTALLS = Path.of("/usr/lib/postgresql");
    private static final String OS_USER = "postgres";
    private static final String SUPERUSER = "postgres";
    private static final int PORT_ATTEMPTS = 5;
    private static final int LOG_TAIL_LINES = 40;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What logical decoding needs, plus speed: data is thrown away after the class. Not {@code
     * synchronous_commit=off}: decoding reads flushed WAL only, so it would delay every change.
     */
    private static final Map<String, String> DEFAULTS =
            Map.of(
                    "wal_level", "logical",
                    "max_replication_slots", "8",
                    "max_wal_senders", "8",
                    "fsync", "off",
                    "full_page_writes", "off");

    private final Path bin;
    private final ScratchDirectory scratch;
    private final Map<String, String> settings;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int port;
    private volatile long pid;

    private PostgresServer(Path bin, ScratchDirectory scratch, Map<String, String> settings) {
        this.bin = bin;
        this.scratch = scratch;
        this.settings = settings;
    }

    /** Starts a server with the logical-decoding defaults. */
    public static PostgresServer start() {
        return start(Map.of());
    }

    /**
     * Starts a server with the defaults overridden by {@code overrides} (server settings, e.g.
     * {@code wal_level=replica} for a negative test), and returns once it accepts connections.
     *
     * @throws FixtureStartException when PostgreSQL is not installed or fails to start; the message
     *     carries the tail of the server log
     */
    public static PostgresServer start(Map<String, String> overrides) {
        var settings = new TreeMap<>(DEFAULTS);
        settings.putAll(overrides);
        var server = new PostgresServer(locate(), SCRATCH.create("postgres-"), settings);
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

    private static Path locate() {
        try (Stream<Path> versions = Files.list(INSTALLS)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                    .max((a, b) -> versionOf(a) - versionOf(b))
                    .orElseThrow(
                            () ->
                                    new FixtureStartException(
                                            "no PostgreSQL server installed: dir="
                                                    + INSTALLS
                                                    + "; install postgresql (apt-get install postgresql)"));
        } catch (IOException e) {
            throw new FixtureStartException(
                    "no PostgreSQL server installed: dir="
                            + INSTALLS
                            + "; install postgresql (apt-get install postgresql)",
                    e);
        }
    }

    private static int versionOf(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0; // not a version directory: ranked last
        }
    }

    private Path dataDir() {
        return scratch.resolve("data");
    }

    /** The socket directory and server log, owned by the server's OS user. */
    private Path runDir() {
        return scratch.resolve("run");
    }

    private Path serverLog() {
        return runDir().resolve("server.log");
    }

    private void boot() {
        long startedNanos = System.nanoTime();
        prepareDirectories();
        run(
                "initdb",
                List.of(
                        "-D",
                        dataDir().toString(),
                        "-A",
                        "trust",
                        "-U",
                        SUPERUSER,
                        "--no-sync",
                        "-E",
                        "UTF8",
                        "--locale=C"));
        for (int attempt = 1; !launchOnFreePort(); attempt++) {
            if (attempt == PORT_ATTEMPTS) {
                throw failure("postgres found no free port: attempts=" + PORT_ATTEMPTS);
            }
            LOG.info("port taken before postgres could bind it, picking another: port={}", port);
        }
        LOG.info(
                "postgres started: port={}, pid={}, settings={}, dataDir={}, millis={}",
                port,
                pid,
                settings,
                dataDir(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
    }

    private void prepareDirectories() {
        try {
            // The server's OS user must reach its directories through ours.
            Files.setPosixFilePermissions(
                    scratch.path(), PosixFilePermissions.fromString("rwxr-xr-x"));
            for (Path dir : List.of(dataDir(), runDir())) {
                Files.createDirectories(dir);
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
                if (runningAsRoot()) {
                    UserPrincipal owner =
                            dir.getFileSystem()
                                    .getUserPrincipalLookupService()
                                    .lookupPrincipalByName(OS_USER);
                    Files.setOwner(dir, owner);
                }
            }
        } catch (IOException e) {
            throw new FixtureStartException(
                    "cannot prepare postgres directories: dir="
                            + scratch.path()
                            + ", osUser="
                            + OS_USER,
                    e);
        }
    }

    private boolean launchOnFreePort() {
        port = FreePort.pick();
        var options = new StringBuilder();
        options.append("-c port=").append(port);
        options.append(" -c listen_addresses=").append(FreePort.HOST);
        options.append(" -c unix_socket_directories=").append(runDir());
        settings.forEach((k, v) -> options.append(" -c ").append(k).append('=').append(v));
        int exit =
                runExitCode(
                        "pg_ctl",
                        List.of(
                                "-D",
                                dataDir().toString(),
                                "-w",
                                "-t",
                                "60",
                                "-l",
                                serverLog().toString(),
                                "-o",
                                options.toString(),
                                "start"));
        if (exit == 0) {
            pid = readPid();
            scratch.recordServer(pid);
            return true;
        }
        if (LogTail.of(serverLog(), LOG_TAIL_LINES).contains("could not bind")) {
            return false;
        }
        throw failure("pg_ctl start failed: exitCode=" + exit);
    }

    private long readPid() {
        try {
            return Long.parseLong(
                    Files.readAllLines(dataDir().resolve("postmaster.pid")).get(0).trim());
        } catch (IOException | RuntimeException e) {
            throw failure("cannot read postmaster.pid: " + e);
        }
    }

    private void run(String tool, List<String> args) {
        int exit = runExitCode(tool, args);
        if (exit != 0) {
            throw failure(tool + " failed: exitCode=" + exit);
        }
    }

    /** Runs a PostgreSQL tool as the server's OS user, its output appended to the server log. */
    private int runExitCode(String tool, List<String> args) {
        var command = new ArrayList<String>();
        if (runningAsRoot()) {
            command.addAll(List.of("runuser", "-u", OS_USER, "--"));
        }
        command.add(bin.resolve(tool).toString());
        command.addAll(args);
        try {
            var process =
                    new ProcessBuilder(command)
                            .directory(scratch.path().toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(
                                    ProcessBuilder.Redirect.appendTo(
                                            scratch.resolve(tool + ".log").toFile()))
                            .start();
            if (!process.waitFor(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw failure(tool + " timed out: after=" + STEP_TIMEOUT);
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new FixtureStartException("cannot run " + tool + ": command=" + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FixtureStartException("interrupted in " + tool + ": command=" + command, e);
        }
    }

    private FixtureStartException failure(String what) {
        var message = new StringBuilder(what);
        message.append(": port=").append(port).append(", dataDir=").append(dataDir());
        for (Path log :
                List.of(
                        scratch.resolve("initdb.log"),
                        scratch.resolve("pg_ctl.log"),
                        serverLog())) {
            if (Files.exists(log)) {
                message.append("\n  tail of ").append(log).append(":\n");
                message.append(LogTail.of(log, LOG_TAIL_LINES));
            }
        }
        return new FixtureStartException(message.toString());
    }

    private static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Always {@code 127.0.0.1}: the server listens on loopback only. */
    public String host() {
        return FreePort.HOST;
    }

    public int port() {
        return port;
    }

    /** {@code postgres}, the superuser; no password (trust). */
    public String user() {
        return SUPERUSER;
    }

    /** The JDBC URL of a database on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host() + ":" + port + "/" + database;
    }

    /** A new connection to {@code database} as {@code user} (no password: trust). */
    public Connection connect(String database, String user) throws SQLException {
        var properties = new Properties();
        properties.setProperty("user", user);
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** A new superuser connection to {@code database}. */
    public Connection connect(String database) throws SQLException {
        return connect(database, SUPERUSER);
    }

    /** Runs statements as the superuser on {@code database}, each in its own transaction. */
    public void execute(String database, String... statements) throws SQLException {
        try (var connection = connect(database);
                var statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** Creates a database and returns its name. */
    public String createDatabase(String name) throws SQLException {
        execute("postgres", "CREATE DATABASE " + name);
        return name;
    }

    /** The settings the server was started with ({@code wal_level}, ...). */
    public Map<String, String> settings() {
        return Map.copyOf(settings);
    }

    /**
     * Stops the server and deletes its directory. Idempotent; never leaves a process behind.
     *
     * @throws UncheckedIOException if the directory cannot be deleted
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
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
        LOG.info("postgres stopped and removed: port={}, dataDir={}", port, dataDir());
    }

    private void stop() {
        if (pid == 0) {
            return;
        }
        // Immediate: the data is deleted next, so a clean checkpoint is wasted time.
        runExitCode("pg_ctl", List.of("-D", dataDir().toString(), "-m", "immediate", "-w", "stop"));
        ProcessHandle.of(pid)
                .filter(ProcessLiveness::running)
                .ifPresent(
                        process -> {
                            LOG.warn("postgres survived pg_ctl stop, killing it: pid={}", pid);
                            process.destroyForcibly();
                            process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                        });
    }

    @Override
    public String toString() {
        return "postgres " + host() + ":" + port + " " + dataDir();
    }
}
