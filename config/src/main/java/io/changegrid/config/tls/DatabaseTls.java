package io.changegrid.config.tls;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * A connection's TLS settings, and their translation into the drivers' connection properties.
 *
 * <table>
 *   <caption>What each mode becomes</caption>
 *   <tr><th>mode</th><th>MariaDB Connector/J {@code sslMode}</th><th>pgjdbc {@code sslmode}</th>
 *       <th>binlog client {@code SSLMode}</th></tr>
 *   <tr><td>disabled</td><td>disable</td><td>disable</td><td>DISABLED</td></tr>
 *   <tr><td>preferred</td><td>trust, then disable if the server has no TLS</td><td>prefer</td>
 *       <td>PREFERRED</td></tr>
 *   <tr><td>required</td><td>trust</td><td>require</td><td>REQUIRED</td></tr>
 *   <tr><td>verify-ca</td><td>verify-ca</td><td>verify-ca</td><td>VERIFY_CA</td></tr>
 *   <tr><td>verify-identity</td><td>verify-full</td><td>verify-full</td>
 *       <td>VERIFY_IDENTITY</td></tr>
 * </table>
 *
 * @param mode how TLS is used
 * @param caFile PEM file of the CA(s) that sign the server's certificate; null for the JVM's trust
 *     store. Used by the verifying modes only.
 */
public record DatabaseTls(TlsMode mode, Path caFile) {

    /** Plain connections. */
    public static final DatabaseTls DISABLED = new DatabaseTls(TlsMode.DISABLED, null);

    /** TLS when offered, unverified: the default, as the drivers' own defaults go. */
    public static final DatabaseTls PREFERRED = new DatabaseTls(TlsMode.PREFERRED, null);

    public DatabaseTls {
        Objects.requireNonNull(mode, "mode");
    }

    /** Whether a JDBC URL names a MariaDB/MySQL server (else PostgreSQL or another database). */
    static boolean isMariaDb(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        return lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:");
    }

    /** MariaDB Connector/J's properties for this mode ({@link #mode} preferred: as required). */
    public Properties mariaDbProperties() {
        Properties properties = new Properties();
        properties.setProperty(
                "sslMode",
                switch (mode) {
                    case DISABLED -> "disable";
                    case PREFERRED, REQUIRED -> "trust";
                    case VERIFY_CA -> "verify-ca";
                    case VERIFY_IDENTITY -> "verify-full";
                });
        if (mode.verifies() && caFile != null) {
            properties.setProperty("serverSslCert", caFile.toString());
        }
        return properties;
    }

    /** pgjdbc's properties for this mode. */
    public Properties postgresProperties() {
        Properties properties = new Properties();
        properties.setProperty(
                "sslmode",
                switch (mode) {
                    case DISABLED -> "disable";
                    case PREFERRED -> "prefer";
                    case REQUIRED -> "require";
                    case VERIFY_CA -> "verify-ca";
                    case VERIFY_IDENTITY -> "verify-full";
                });
        if (mode.verifies()) {
            if (caFile != null) {
                properties.setProperty("sslrootcert", caFile.toString());
            } else {
                // pgjdbc's own default is ~/.postgresql/root.crt; without a CA file we promise
                // the JVM's trust store, as for MariaDB.
                properties.setProperty("sslfactory", "org.postgresql.ssl.DefaultJavaSSLFactory");
            }
        }
        return properties;
    }

    /** For logs: the mode and the CA file, never anything secret. */
    @Override
    public String toString() {
        return mode.name().toLowerCase(Locale.ROOT).replace('_', '-')
                + (caFile == null ? "" : ", caFile=" + caFile);
    }
}
