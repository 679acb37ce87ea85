package io.changegrid.appliers.it;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresDatabase;
import io.changegrid.gridkit.server.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** A target database of a test: its JDBC URL and credentials, and how to run SQL on it. */
record Target(String name, String url, String user, String password, boolean postgres) {

    static Target of(PostgresDatabase database) {
        return new Target(
                "postgres", database.jdbcUrl(), database.user(), database.password(), true);
    }

    /** A database of a private PostgreSQL server (grid-kit's {@code PostgresServer}). */
    static Target ofPostgres(PostgresServer server, String database) {
        return new Target("postgres", server.jdbcUrl(database), server.user(), "", true);
    }

    static Target of(MariaDbServer server) {
        return new Target(
                "mariadb", server.jdbcUrl(""), server.rootUser(), server.rootPassword(), false);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password == null ? "" : password);
    }

    void execute(String... sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        }
    }

    long count(String sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** {@code namespace.table} quoted for this target. */
    String table(String namespace, String table) {
        return postgres
                ? '"' + namespace + "\".\"" + table + '"'
                : '`' + namespace + "`.`" + table + '`';
    }
}
