package io.changegrid.gridkit.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Where the PostgreSQL server for tests listens and who to log in as: libpq's {@code PGHOST},
 * {@code PGPORT}, {@code PGUSER} and {@code PGPASSWORD} where set, else the local server with trust
 * authentication ({@code 127.0.0.1:5432}, user {@code postgres}).
 */
public record PostgresAddress(String host, int port, String user, String password) {
    /** The database that always exists, used to create and drop the test's own. */
    public static final String MAINTENANCE_DATABASE = "postgres";

    /** The address from libpq's environment variables, defaults filled in. */
    public static PostgresAddress fromEnvironment() {
        var port = env("PGPORT", "5432");
        try {
            return new PostgresAddress(
                    env("PGHOST", "127.0.0.1"),
                    Integer.parseInt(port),
                    env("PGUSER", "postgres"),
                    env("PGPASSWORD", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid PGPORT: value=" + port, e);
        }
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** The JDBC URL of {@code database} on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    Connection connect(String database) throws SQLException {
        var properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        // Seconds: a server that is down should be reported at once, not after the default.
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }
}
