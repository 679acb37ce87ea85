package io.changegrid.gridkit.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fresh database, {@code changegrid_test_<random>}, on the machine's PostgreSQL server, dropped
 * on {@link #close()}. The server is the local one ({@code 127.0.0.1:5432}, user {@code postgres},
 * trust authentication) unless libpq's {@code PGHOST}/{@code PGPORT}/{@code PGUSER}/{@code
 * PGPASSWORD} say otherwise.
 *
 * <pre>{@code
 * try (var db = PostgresDatabase.create()) {
 *     db.execute("CREATE TABLE offsets (consumer TEXT PRIMARY KEY, scn BIGINT)");
 *     try (var connection = db.connect()) { ... }
 * }
 * }</pre>
 *
 * <p>Thread-safe: every helper opens its own connection.
 */
public final class PostgresDatabase implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresDatabase.class);
    private static final String NAME_PREFIX = "changegrid_test_";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Path DEBIAN_INSTALLS = Path.of("/usr/lib/postgresql");

    private final PostgresAddress address;
    private final String name;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PostgresDatabase(PostgresAddress address, String name) {
        this.address = address;
        this.name = name;
    }

    /**
     * Creates a database with a random name.
     *
     * @throws FixtureStartException if the server cannot be reached (the message says how to start
     *     or install it) or refuses to create the database
     */
    public static PostgresDatabase create() {
        var address = PostgresAddress.fromEnvironment();
        var name = NAME_PREFIX + HexFormat.of().formatHex(randomBytes());
        try (var admin = connectMaintenance(address);
                var statement = admin.createStatement()) {
            // A random lowercase hex suffix needs no quoting and cannot inject anything.
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new FixtureStartException(
                    "cannot create PostgreSQL database: name="
                            + name
                            + ", url="
                            + address.jdbcUrl(PostgresAddress.MAINTENANCE_DATABASE)
                            + ": "
                            + e.getMessage(),
                    e);
        }
        var database = new PostgresDatabase(address, name);
        ExitGuard.register(database);
        LOG.info("PostgreSQL database created: url={}", database.jdbcUrl());
        return database;
    }

    private static byte[] randomBytes() {
        var bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static Connection connectMaintenance(PostgresAddress address) {
        try {
            return address.connect(PostgresAddress.MAINTENANCE_DATABASE);
        } catch (SQLException e) {
            throw new FixtureStartException(unreachable(address, e), e);
        }
    }

    private static String unreachable(PostgresAddress address, SQLException cause) {
        var versions = installedVersions();
        var howTo =
                versions.isEmpty()
                        ? "install it: apt-get install -y postgresql (Debian/Ubuntu), then start"
                                + " it: pg_ctlcluster --skip-systemctl-redirect <version> main"
                                + " start"
                        : "start it: pg_ctlcluster --skip-systemctl-redirect "
                                + versions.get(versions.size() - 1)
                                + " main start (installed versions: "
                                + versions
                                + ")";
        return "PostgreSQL not reachable: url="
                + address.jdbcUrl(PostgresAddress.MAINTENANCE_DATABASE)
                + ", user="
                + address.user()
                + ", error="
                + cause.getMessage()
                + "; "
                + howTo
                + "; or point PGHOST/PGPORT/PGUSER/PGPASSWORD at another server";
    }

    /** Versions of the Debian {@code postgresql-N} packages present, oldest first. */
    private static List<String> installedVersions() {
        if (!Files.isDirectory(DEBIAN_INSTALLS)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(DEBIAN_INSTALLS)) {
            return dirs.map(dir -> dir.getFileName().toString())
                    .filter(version -> version.matches("\\d+(\\.\\d+)?"))
                    .sorted((a, b) -> Double.compare(Double.parseDouble(a), Double.parseDouble(b)))
                    .toList();
        } catch (IOException e) {
            return List.of(); // only used to phrase a hint
        }
    }

    /** The database's name, {@code changegrid_test_} and 12 hex digits. */
    public String name() {
        return name;
    }

    public String host() {
        return address.host();
    }

    public int port() {
        return address.port();
    }

    /** A user that owns the database (the server's superuser for the local default). */
    public String user() {
        return address.user();
    }

    /** Password of {@link #user()}; empty under trust authentication. */
    public String password() {
        return address.password();
    }

    /** JDBC URL of this database, without credentials. */
    public String jdbcUrl() {
        return address.jdbcUrl(name);
    }

    /** A new connection to this database; the caller closes it. */
    public Connection connect() throws SQLException {
        return address.connect(name);
    }

    /**
     * Runs each statement in order on one connection, with autocommit.
     *
     * @throws SQLException naming the statement that failed
     */
    public void execute(String... sql) throws SQLException {
        try (var connection = connect();
                var statement = connection.createStatement()) {
            for (var each : sql) {
                try {
                    statement.execute(each);
                } catch (SQLException e) {
                    throw new SQLException(
                            "statement failed: sql=" + each + ", url=" + jdbcUrl() + ": " + e,
                            e.getSQLState(),
                            e.getErrorCode(),
                            e);
                }
            }
        }
    }

    /**
     * Drops the database, first ending the sessions still connected to it (a pool the test did not
     * close would otherwise block the drop); idempotent.
     *
     * @throws IllegalStateException if the database cannot be dropped
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        ExitGuard.unregister(this);
        try (var admin = address.connect(PostgresAddress.MAINTENANCE_DATABASE)) {
            try (var terminate =
                    admin.prepareStatement(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                    + " WHERE datname = ? AND pid <> pg_backend_pid()")) {
                terminate.setString(1, name);
                terminate.execute();
            }
            try (var drop = admin.createStatement()) {
                // DROP waits up to 5 s for the terminated backends to exit.
                drop.execute("DROP DATABASE IF EXISTS " + name);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot drop PostgreSQL database: name=" + name + ", url=" + jdbcUrl(), e);
        }
    }

    @Override
    public String toString() {
        return "PostgresDatabase[" + jdbcUrl() + "]";
    }
}
