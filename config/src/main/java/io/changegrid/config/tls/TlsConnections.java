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

    /** MariaDB/MySQL's ER_ACCESS_DENIED_ERROR. */
    private static final int ACCESS_DENIED = 1045;

    private static final DatabaseTls REQUIRED = new DatabaseTls(TlsMode.REQUIRED, null);

    private TlsConnections() {}

    /**
     * @param url a {@code jdbc:mariadb:}, {@code jdbc:mysql:} or {@code jdbc:postgresql:} URL
     * @param properties user, password and driver settings; the TLS ones are added to a copy
     */
    public static Connection open(String url, Properties properties, DatabaseTls tls)
            throws SQLException {
        try {
            return connect(url, properties, tls);
        } catch (SQLException e) {
            if (tls.mode() == TlsMode.DISABLED
                    && (refusesPlain(e) || acceptsOnlyOverTls(url, properties, e))) {
                throw new SQLException(
                        "the server refuses connections without TLS: url="
                                + url
                                + ", tls.mode=disabled; set the connection's tls.mode (e.g."
                                + " source.tls.mode or target.tls.mode: verify-identity with a"
                                + " tls.caFile, see docs/security.md); server says: "
                                + e.getMessage(),
                        e.getSQLState(),
                        e.getErrorCode(),
                        e);
            }
            throw e;
        }
    }

    /**
     * Whether a MariaDB/MySQL "access denied" (1045) of a plain connection is the server wanting
     * TLS: MariaDB answers so both for {@code require_secure_transport=ON} and for accounts {@code
     * REQUIRE SSL}, exactly as for a wrong password. The same credentials are tried once over
     * (unverified) TLS, which exposes nothing a plain attempt did not; their acceptance settles it.
     */
    private static boolean acceptsOnlyOverTls(String url, Properties properties, SQLException e) {
        if (!DatabaseTls.isMariaDb(url) || e.getErrorCode() != ACCESS_DENIED) {
            return false;
        }
        try (Connection probe = connect(url, properties, REQUIRED)) {
            return probe.isValid(1);
        } catch (SQLException probeFailed) {
            return false;
        }
    }

    private static Connection connect(String url, Properties properties, DatabaseTls tls)
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

    /**
     * A server's refusal of a plain connection: MariaDB/MySQL with {@code
     * require_secure_transport=ON}, PostgreSQL with only {@code hostssl} lines in pg_hba.conf.
     */
    static boolean refusesPlain(SQLException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return message.contains("insecure transport")
                || (message.contains("pg_hba.conf") && message.contains("no encryption"));
    }

    /** Connector/J's refusal when asked for TLS by a server without it. */
    private static boolean serverHasNoTls(SQLException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return message.contains("ssl not enabled in the server");
    }
}
