package io.changegrid.deploy.local;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The quickstart's PostgreSQL target: a database of its own, named by {@code --target}, dropped and
 * made again at every start so that each run replicates into empty tables. Only a database the
 * quickstart made (marked by a comment) is ever dropped; any other of that name is refused.
 *
 * @param url the target database's JDBC URL
 * @param maintenanceUrl the same server's {@code postgres} database, where the target is made
 * @param database the target database's name
 */
record QuickstartTarget(
        String url, String maintenanceUrl, String database, String user, String password) {

    /** Where the quickstart replicates to unless told otherwise. */
    static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/changegrid_quickstart";

    private static final String MARK =
            "made by the changegrid quickstart; dropped at its next start";
    private static final Pattern POSTGRES_URL =
            Pattern.compile("jdbc:postgresql://([^/?]+)/([A-Za-z_][A-Za-z0-9_]{0,62})(\\?.*)?");

    /**
     * The target a {@code --target} value names, or empty for {@code none}.
     *
     * @throws IllegalArgumentException naming the option if the value is neither
     */
    static Optional<QuickstartTarget> parse(String target, String user, String password) {
        if (target.equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        Matcher url = POSTGRES_URL.matcher(target);
        if (!url.matches()) {
            throw new IllegalArgumentException(
                    "bad value: option=--target, value="
                            + target
                            + ": expected jdbc:postgresql://host:port/database (database: letters,"
                            + " digits, _) or none");
        }
        String parameters = url.group(3) == null ? "" : url.group(3);
        return Optional.of(
                new QuickstartTarget(
                        target,
                        "jdbc:postgresql://" + url.group(1) + "/postgres" + parameters,
                        url.group(2),
                        user,
                        password));
    }

    /** The server's address as the URL gives it, for messages. */
    String server() {
        Matcher url = POSTGRES_URL.matcher(this.url);
        return url.matches() ? url.group(1) : this.url;
    }

    /**
     * Drops the database if an earlier quickstart made it, and makes it again.
     *
     * @throws SQLException if the server cannot be reached (the quickstart then writes JSON lines)
     * @throws IllegalStateException if a database of that name exists that the quickstart did not
     *     make
     */
    void recreate() throws SQLException {
        try (Connection connection = connect(maintenanceUrl);
                Statement statement = connection.createStatement()) {
            Optional<String> comment = existingComment(connection);
            if (comment.isPresent()) {
                if (!comment.get().equals(MARK)) {
                    throw new IllegalStateException(
                            "database exists and was not made by the quickstart, not dropping it:"
                                    + " option=--target, database="
                                    + database
                                    + "; name another database or --target none");
                }
                // FORCE: a psql session left open on it must not keep the quickstart from starting.
                statement.execute("DROP DATABASE " + quoted() + " WITH (FORCE)");
            }
            statement.execute("CREATE DATABASE " + quoted());
            statement.execute("COMMENT ON DATABASE " + quoted() + " IS '" + MARK + "'");
        }
    }

    /** The database's comment if it exists ("" for none); empty if there is no such database. */
    private Optional<String> existingComment(Connection connection) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT coalesce(shobj_description(oid, 'pg_database'), '')"
                                + " FROM pg_database WHERE datname = ?")) {
            select.setString(1, database);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
            }
        }
    }

    /** A connection to the target database. */
    Connection connect() throws SQLException {
        return connect(url);
    }

    private Connection connect(String jdbcUrl) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        if (!password.isEmpty()) {
            properties.setProperty("password", password);
        }
        // An absent server must not hold the quickstart up: it falls back to JSON lines.
        properties.setProperty("connectTimeout", "2");
        properties.setProperty("loginTimeout", "3");
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    private String quoted() {
        return '"' + database + '"';
    }
}
