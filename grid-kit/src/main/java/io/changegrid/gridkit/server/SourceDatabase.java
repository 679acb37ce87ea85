package io.changegrid.gridkit.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A running MySQL-family server with a ROW/FULL binlog, as a CDC test sees it: where it listens, a
 * replication user for the code under test, and root for the test's own setup.
 *
 * <p>Implemented by {@link MariaDbServer} (private {@code mariadbd}) and, in test-kit, by {@code
 * MySqlContainerSource} (MySQL 8 in Docker), which {@code SourceChoice} picks between. JDBC URLs
 * use the MariaDB driver for both, which speaks to MySQL 8 as well.
 *
 * <p>Thread-safe: every helper opens its own connection.
 */
public interface SourceDatabase extends AutoCloseable {

    /** Which server family runs; binlog details such as the GTID format differ between them. */
    enum Flavor {
        MARIADB,
        MYSQL
    }

    Flavor flavor();

    /** Host to connect to, as seen from the test JVM. */
    String host();

    /** Port to connect to, as seen from the test JVM. */
    int port();

    /** The server's {@code server_id}; a binlog reader must register with a different one. */
    long serverId();

    /**
     * The replication user: {@code SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION
     * CLIENT} on {@code *.*}. Give these credentials to the code under test.
     */
    default String user() {
        return ReplicationGrants.USER;
    }

    /** Password of {@link #user()}. */
    default String password() {
        return ReplicationGrants.PASSWORD;
    }

    /**
     * A user with all privileges, for test setup; what {@link #connect} and {@link #execute} use.
     */
    String rootUser();

    /** Password of {@link #rootUser()}; may be empty. */
    String rootPassword();

    /**
     * JDBC URL of {@code database} without credentials.
     *
     * @param database a database (schema) name, or {@code ""} for none
     */
    String jdbcUrl(String database);

    /** JDBC URL without a default database. */
    default String jdbcUrl() {
        return jdbcUrl("");
    }

    /** A new connection as {@link #rootUser()} without a default database; the caller closes it. */
    default Connection connect() throws SQLException {
        return connect("");
    }

    /** A new connection as {@link #rootUser()} to {@code database}; the caller closes it. */
    default Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), rootUser(), rootPassword());
    }

    /**
     * Runs each statement in order as {@link #rootUser()} on one connection, with autocommit.
     *
     * @throws SQLException naming the statement that failed
     */
    default void execute(String... sql) throws SQLException {
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

    /** Stops the server and removes what it left behind; idempotent. */
    @Override
    void close();
}
