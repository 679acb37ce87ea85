package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.tls.DatabaseTls;
import io.changegrid.config.tls.TlsMode;
import io.changegrid.gridkit.server.PostgresServer;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.tls.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL fetcher over verified TLS (pgjdbc {@code sslmode=verify-full} with the test CA as
 * {@code sslrootcert}) to a private PostgreSQL with {@code ssl=on}: rows arrive, and the server
 * reports every one of the fetcher's connections, catalog and replication alike, as TLS.
 */
class PostgresTlsIT {

    private static Path pki;
    private static TestCertificates certificates;
    private static TestCertificates.Issued serverCertificate;
    private static PostgresServer server;

    @BeforeAll
    static void startWithTls() throws Exception {
        // Where the server's OS user (postgres, when tests run as root) can read them.
        pki = Files.createTempDirectory("changegrid-pg-tls-");
        Files.setPosixFilePermissions(pki, PosixFilePermissions.fromString("rwxr-xr-x"));
        certificates = TestCertificates.authority(pki.resolve("made"), "changegrid test CA");
        serverCertificate = certificates.issue("server", "localhost", "127.0.0.1", "localhost");
        Path certificate = copy(serverCertificate.chainPem(), "server.pem", "rw-r--r--");
        Path key = copy(serverCertificate.keyPem(), "server.key", "rw-------");
        if ("root".equals(System.getProperty("user.name"))) {
            UserPrincipal postgres =
                    pki.getFileSystem()
                            .getUserPrincipalLookupService()
                            .lookupPrincipalByName("postgres");
            Files.setOwner(key, postgres);
        }
        server =
                PostgresServer.start(
                        Map.of(
                                "ssl", "on",
                                "ssl_cert_file", certificate.toString(),
                                "ssl_key_file", key.toString()));
    }

    private static Path copy(Path from, String name, String permissions) throws Exception {
        Path to = pki.resolve(name);
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(permissions));
        return to;
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        try (var files = Files.walk(pki)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Test
    void shouldCaptureOverVerifiedTlsWhenTheSourceHasACertificateOfTheTestCa() throws Exception {
        server.createDatabase("tlsdb");
        server.execute(
                "tlsdb",
                "CREATE SCHEMA shop",
                "CREATE TABLE shop.orders (id int PRIMARY KEY, note text)",
                "ALTER TABLE shop.orders REPLICA IDENTITY FULL");
        PostgresFetcherConfig config =
                new PostgresFetcherConfig(
                        server.host(),
                        server.port(),
                        "tlsdb",
                        server.user(),
                        "",
                        "tlsdb",
                        "changegrid",
                        true,
                        new StartPosition.Current(),
                        Duration.ofMillis(200),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(1),
                        1,
                        TableFilter.of(List.of("shop.*"), List.of()),
                        CapturePlan.everything(),
                        64 << 20,
                        new DatabaseTls(TlsMode.VERIFY_IDENTITY, certificates.caPem()));

        try (PgRunningFetcher running = PgRunningFetcher.start(config, null)) {
            server.execute("tlsdb", "INSERT INTO shop.orders VALUES (1, 'over tls')");
            running.sink.awaitRowEvents(1);
            assertThat(running.sink.rowEvents().get(0).after()[1]).isEqualTo("over tls");

            try (Connection admin = server.connect("postgres");
                    Statement statement = admin.createStatement();
                    ResultSet rows =
                            statement.executeQuery(
                                    "SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE"
                                            + " NOT s.ssl) FROM pg_stat_activity a JOIN pg_stat_ssl s"
                                            + " USING (pid) WHERE a.application_name ="
                                            + " 'changegrid-relay'")) {
                rows.next();
                assertThat(rows.getLong(1)).as("the fetcher's TLS connections").isPositive();
                assertThat(rows.getLong(2)).as("its plain connections").isZero();
            }
        }
    }
}
