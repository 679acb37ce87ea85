package io.changegrid.deploy.local;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Where the local grid's source is and how to log in: the private MariaDB it starts, or a
 * MySQL/MariaDB given on the command line.
 */
record SourceAddress(String host, int port, String user, String password) {

    /**
     * Parses {@code host:port}.
     *
     * @throws IllegalArgumentException naming the text if it is not {@code host:port}
     */
    static SourceAddress parse(String hostPort, String user, String password) {
        int colon = hostPort.lastIndexOf(':');
        try {
            return new SourceAddress(
                    hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1)),
                    user,
                    password);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--source must be host:port: value=" + hostPort, e);
        }
    }

    Connection connect() throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        return DriverManager.getConnection(
                "jdbc:mariadb://" + host + ":" + port + "/", credentials);
    }
}
