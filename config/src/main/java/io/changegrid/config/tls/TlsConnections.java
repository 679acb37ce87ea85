package io.changegrid.config.tls;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * Opens JDBC connections with a {@link DatabaseTls}: the one way fetchers and appliers connect to
 * MariaDB/MySQL and PostgreSQL.
 *
 * <p>MariaDB Connector/J has no "preferred" mode: {@link TlsMode#PREFERRED} asks for TLS and, when
 * the server answers that it has none, connects again in plain, as the binlog client and pgjdbc do
 * by themselves.
 */
public final class TlsConnections {

    private TlsConnections() {}

    /**
     * @param url a {@code jdbc:mariadb:}, {@code jdbc:mysql:} or {@code jdbc:postgresql:} URL
     * @param properties user, password and driver settings; the TLS ones are added to a copy
     */
    public static Connection open(String url, Properties properties, DatabaseTls tls)
            throws SQLException {
        Properties all = new Properties();
        all.putAll(properties);
        if (!DatabaseTls.isMariaDb(url)) {
            all.putAll(tls.postgresProperties());
            return DriverManager.getConnection(url, all);
        }
        all.putAll(tls.mariaDbProperties());
        try {
            return DriverManager.getConnection(url, all);
        } catch (SQLException e) {
            if (tls.mode() != TlsMode.PREFERRED || !serverHasNoTls(e)) {
                throw e;
            }
            all.putAll(DatabaseTls.DISABLED.mariaDbProperties());
            return DriverManager.getConnection(url, all);
        }
    }

    /** Connector/J's refusal when asked for TLS by a server without it. */
    private static boolean serverHasNoTls(SQLException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return message.contains("ssl not enabled in the server");
    }
}
