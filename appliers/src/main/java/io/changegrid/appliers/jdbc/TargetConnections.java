package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.config.tls.TlsConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/** Opens connections to the target with the dialect's driver properties and session settings. */
final class TargetConnections {

    private final ApplierOptions options;
    private final Dialect dialect;

    TargetConnections(ApplierOptions options, Dialect dialect) {
        this.options = options;
        this.dialect = dialect;
    }

    /** A new connection, autocommit on. */
    Connection open() throws SQLException {
        Properties properties = dialect.connectionProperties();
        if (options.user() != null) {
            properties.setProperty("user", options.user());
        }
        if (options.password() != null) {
            properties.setProperty("password", options.password());
        }
        Connection connection = TlsConnections.open(options.url(), properties, options.tls());
        try {
            dialect.prepareSession(connection);
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }
}
