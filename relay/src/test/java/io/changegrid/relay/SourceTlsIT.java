package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.PrivateFile;
import io.changegrid.config.tls.DatabaseTls;
import io.changegrid.config.tls.TlsConnections;
import io.changegrid.config.tls.TlsMode;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.tls.TestCertificates;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay capturing a private mariadbd that accepts TLS connections only ({@code
 * require_secure_transport=ON}, certificates made at test time), with its password given as a
 * {@code ${file:...}} reference: the capture works end to end over verified TLS, the password never
 * shows in the relay's log, status or metrics, and the same relay with TLS disabled is refused with
 * an error that says what to set.
 */
class SourceTlsIT {

    /** The capture user's password: what must never appear in the relay's output. */
    private static final String SECRET = "pw-9d41c7-never-logged";

    private static final String USER = "cdc_tls";
    private static final Pattern KEY = Pattern.compile("\"key\":\\{\"id\":(\\d+)}");

    @TempDir static Path work;

    private static TestCertificates certificates;
    private static TestCertificates.Issued serverCertificate;
    private static MariaDbServer server;

    @BeforeAll
    static void startSecureSource() throws Exception {
        certificates = TestCertificates.authority(work.resolve("pki"), "changegrid test CA");
        serverCertificate = certificates.issue("server", "localhost", "127.0.0.1", "localhost");
        server =
                MariaDbServer.start(
                        MariaDbConfig.builder()
                                .extraOption("--ssl-ca=" + certificates.caPem())
                                .extraOption("--ssl-cert=" + serverCertificate.chainPem())
                                .extraOption("--ssl-key=" + serverCertificate.keyPem())
                                .build());
        // The fixture sets itself up over plain TCP; only then are plain connections refused.
        server.execute(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))",
                "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + SECRET + "'",
                "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT ON"
                        + " *.* TO '"
                        + USER
                        + "'@'%'",
                "SET GLOBAL require_secure_transport = ON");
    }

    @AfterAll
    static void stopSource() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldCaptureOverVerifiedTlsAndNeverShowThePasswordWhenTheSourceRequiresTls()
            throws Exception {
        Path passwordFile = work.resolve("secrets/db.pass");
        PrivateFile.write(passwordFile, SECRET + "\n");
        int port = FreePort.pick();
        Path config = work.resolve("relay.yaml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "source:",
                        "  host: " + server.host(),
                        "  port: " + server.port(),
                        "  user: " + USER,
                        "  password: \"${file:" + passwordFile + "}\"",
                        "  serverId: 9301",
                        "  heartbeatInterval: 200ms",
                        "  tls:",
                        "    mode: verify-identity",
                        "    caFile: " + certificates.caPem(),
                        "capture:",
                        "  include: [shop.orders]",
                        "buffer:",
                        "  capacity: 64MiB",
                        "  segmentSize: 1MiB",
                        "state:",
                        "  directory: " + work.resolve("state"),
                        "http:",
                        "  port: " + port,
                        ""));
        Path log = work.resolve("relay.log");
        StreamClient client = new StreamClient(port);
        String status;
        String metrics;
        try (JavaProcess relay = RelayJvm.start(config, log)) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(100, TimeUnit.MILLISECONDS)
                    .ignoreExceptions()
                    .until(
                            () -> {
                                assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
                                return client.getText("/v1/health").statusCode() == 200;
                            });
            try (Connection connection = rootOverTls();
                    Statement statement = connection.createStatement()) {
                assertThat(sessionTlsVersion(statement)).as("the test's own session").isNotEmpty();
                for (int id = 1; id <= 20; id++) {
                    statement.execute("INSERT INTO shop.orders VALUES (" + id + ", 'order')");
                }
            }
            Set<Integer> ids = new HashSet<>();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(100, TimeUnit.MILLISECONDS)
                    .until(
                            () -> {
                                ids.addAll(streamedIds(client));
                                return ids.size() >= 20;
                            });
            assertThat(ids).containsExactlyInAnyOrderElementsOf(rangeClosed(1, 20));
            status = client.getText("/v1/status").body();
            metrics = client.getText("/metrics").body();
            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
        }

        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .as("the relay's log")
                .contains("password=****")
                .doesNotContain(SECRET);
        assertThat(status).as("/v1/status").doesNotContain(SECRET);
        assertThat(metrics).as("/metrics").doesNotContain(SECRET);
        try (Stream<Path> files = Files.walk(work.resolve("state"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
                        .as("state file " + file)
                        .doesNotContain(SECRET);
            }
        }
    }

    @Test
    void shouldRefuseToStartNamingTheTlsSettingWhenTlsIsDisabledAgainstATlsOnlySource()
            throws Exception {
        var settings =
                RelaySettings.load(
                        Map.of(),
                        Map.ofEntries(
                                Map.entry("source.host", server.host()),
                                Map.entry("source.port", Integer.toString(server.port())),
                                Map.entry("source.user", USER),
                                Map.entry("source.password", SECRET),
                                Map.entry("source.serverId", "9302"),
                                Map.entry("source.tls.mode", "disabled"),
                                Map.entry("capture.include", "shop.orders"),
                                Map.entry("buffer.capacity", "64MiB"),
                                Map.entry("buffer.segmentSize", "1MiB"),
                                Map.entry(
                                        "state.directory", work.resolve("plain-state").toString()),
                                Map.entry("http.port", "0")));

        assertThatThrownBy(() -> Relay.start(settings).close())
                .hasMessageContaining("the server refuses connections without TLS")
                .hasMessageContaining("tls.mode=disabled")
                .hasMessageContaining("source.tls.mode")
                .hasMessageNotContaining(SECRET);
    }

    private static Connection rootOverTls() throws SQLException {
        Properties root = new Properties();
        root.setProperty("user", server.rootUser());
        root.setProperty("password", server.rootPassword());
        return TlsConnections.open(
                server.jdbcUrl(""),
                root,
                new DatabaseTls(TlsMode.VERIFY_IDENTITY, certificates.caPem()));
    }

    private static String sessionTlsVersion(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_version'")) {
            return row.next() ? row.getString(2) : "";
        }
    }

    /** The order ids of every row the relay serves, read as JSON from the oldest it holds. */
    private static Set<Integer> streamedIds(StreamClient client) throws Exception {
        Set<Integer> ids = new HashSet<>();
        long checkpoint = -1;
        while (true) {
            HttpResponse<String> response =
                    client.getText(
                            "/v1/stream?from="
                                    + checkpoint
                                    + "&timeoutMs=0&format=json&tables=shop.orders");
            long next = StreamClient.lastScn(response);
            Matcher matcher = KEY.matcher(response.body());
            while (matcher.find()) {
                ids.add(Integer.parseInt(matcher.group(1)));
            }
            if (response.body().isEmpty() || next == checkpoint) {
                return ids;
            }
            checkpoint = next;
        }
    }

    private static List<Integer> rangeClosed(int from, int to) {
        return java.util.stream.IntStream.rangeClosed(from, to).boxed().toList();
    }
}
