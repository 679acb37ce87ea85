package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.protocol.security.TokenTable;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.tls.TestCertificates;
import java.math.BigInteger;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured relay with real TLS against a private mariadbd: a test CA issues the relay's and the
 * clients' certificates at test time; principals come from bearer tokens (a token file of SHA-256
 * hashes) and from client certificates; the access file grants tables, a column projection and the
 * operations role. What the wire carries is checked on the response bytes.
 */
class SecureRelayIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir static Path relayState;
    @TempDir static Path files;

    static final String ORDERS_TOKEN = "orders-token-0f3a9c5e7b2d4f6a8c0e1b3d5f7a9c1e";
    static final String ADMIN_TOKEN = "admin-token-7c1e9a3b5d7f9b1d3f5a7c9e1b3d5f7a";
    static final String SECRET_SSN = "SSN-SECRET-4242";

    static TestCertificates authority;
    static TestCertificates.Issued ordersClient;
    static TestCertificates.Issued strangerClient;
    static Path tokens;
    static Relay relay;

    @BeforeAll
    static void startSecuredRelay() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, total DECIMAL(10,2))",
                        "CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40),"
                                + " ssn VARCHAR(40))",
                        "CREATE DATABASE hr",
                        "CREATE TABLE hr.salaries (id INT PRIMARY KEY, amount INT)");
        authority = TestCertificates.authority(files.resolve("tls"), "changegrid test CA");
        TestCertificates.Issued server =
                authority.issue("relay", "relay", "localhost", "127.0.0.1");
        ordersClient = authority.issue("orders-client", "orders-app");
        strangerClient = authority.issue("stranger-client", "stranger");
        tokens = files.resolve("tokens");
        writeAtomically(
                tokens,
                "# principal tokens\n"
                        + TokenTable.SHA256
                        + TokenTable.hash(ORDERS_TOKEN)
                        + " orders-app\n"
                        + TokenTable.SHA256
                        + TokenTable.hash(ADMIN_TOKEN)
                        + " admin\n");
        Path access = files.resolve("access.yaml");
        Files.writeString(
                access,
                """
                principals:
                  orders-app:
                    tables: [shop.*]
                    columns:
                      shop.customers: [id, name]
                  admin:
                    tables: ["*.*"]
                    operations: true
                """);
        Map<String, String> settings = new HashMap<>();
        settings.put("http.tls.certificate", server.chainPem().toString());
        settings.put("http.tls.privateKey", server.keyPem().toString());
        settings.put("http.tls.trustStore", authority.caPem().toString());
        settings.put("http.tls.clientAuth", "want");
        settings.put("security.tokens", tokens.toString());
        settings.put("security.access", access.toString());
        relay = RelayFixture.start(MARIADB.server(), relayState, 9_424, settings);
        MARIADB.server()
                .execute(
                        "INSERT INTO shop.orders VALUES (1, 10.50), (2, 20.00)",
                        "INSERT INTO shop.customers VALUES (1, 'Ada Visible', '"
                                + SECRET_SSN
                                + "')",
                        "INSERT INTO hr.salaries VALUES (1, 99000)");
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () ->
                                get("/v1/stream?from=-1&timeoutMs=0&format=json", ADMIN_TOKEN, null)
                                        .body()
                                        .contains("99000"));
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    @Test
    void shouldStreamOverHttpsIntoConsumerWhenTokenGrantsTheTables() throws Exception {
        List<String> rows = new CopyOnWriteArrayList<>();
        Consumer consumer =
                Consumer.builder()
                        .name("secure-consumer")
                        .relays("https://localhost:" + relay.httpPort())
                        .subscription(Subscription.tables("shop.*"))
                        .set("relay.tls.trustStore", authority.caPem().toString())
                        .set("relay.token", ORDERS_TOKEN)
                        .pollTimeout(Duration.ofSeconds(1))
                        .callback(
                                (EventView event) -> {
                                    if (event.after() != null) {
                                        List<String> values = new java.util.ArrayList<>();
                                        for (var column : event.schema().columns()) {
                                            values.add(
                                                    column.name() + "=" + event.get(column.name()));
                                        }
                                        rows.add(event.table() + ":" + values);
                                    }
                                    return CallbackResult.SUCCESS;
                                })
                        .checkpointStore(new MemoryCheckpointStore())
                        .build();
        consumer.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows.size() >= 3);
        } finally {
            consumer.close();
        }
        assertThat(rows).anyMatch(r -> r.startsWith("orders:[id=1, total=10.5"));
        // The customer arrives with the two granted columns only: id and name.
        assertThat(rows).contains("customers:[id=1, name=Ada Visible]");
        assertThat(String.join("\n", rows)).doesNotContain(SECRET_SSN).doesNotContain("99000");
    }

    @Test
    void shouldAnswer401WhenNoTokenOrAnUnknownOneIsShown() throws Exception {
        HttpResponse<String> none = get("/v1/stream?from=-1&timeoutMs=0", null, null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.body()).contains("not authenticated").contains("no credentials");
        assertThat(none.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        HttpResponse<String> unknown = get("/v1/stream?from=-1&timeoutMs=0", "guess", null);
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(unknown.body()).contains("unknown bearer token").doesNotContain("guess");
        assertThat(get("/v1/schemas", null, null).statusCode()).isEqualTo(401);
        // Health stays open for load balancers.
        assertThat(get("/v1/health", null, null).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswer403NamingTheTableWhenTheSubscriptionNamesOneOutsideTheGrant()
            throws Exception {
        HttpResponse<String> refused =
                get(
                        "/v1/stream?from=-1&timeoutMs=0&tables=shop.orders,hr.salaries",
                        ORDERS_TOKEN,
                        null);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body())
                .contains("principal=orders-app")
                .contains("hr.salaries")
                .doesNotContain("99000");
        // A pattern is narrowed to what is granted: *.* streams shop only.
        HttpResponse<String> narrowed =
                get("/v1/stream?from=-1&timeoutMs=0&format=json&tables=*.*", ORDERS_TOKEN, null);
        assertThat(narrowed.statusCode()).isEqualTo(200);
        assertThat(narrowed.body()).contains("Ada Visible").doesNotContain("99000");
        // A predicate on a hidden column would leak it through what is selected.
        String filter =
                "{\"policies\":[{\"include\":[\"shop.customers\"],\"where\":\"ssn LIKE 'SSN%'\"}]}";
        HttpResponse<String> predicate =
                get(
                        "/v1/stream?from=-1&timeoutMs=0&filter="
                                + URLEncoder.encode(filter, StandardCharsets.UTF_8),
                        ORDERS_TOKEN,
                        null);
        assertThat(predicate.statusCode()).as(predicate.body()).isEqualTo(403);
        assertThat(predicate.body()).contains("ssn").doesNotContain(SECRET_SSN);
        // The operations endpoints need the operations role.
        HttpResponse<String> metrics = get("/metrics", ORDERS_TOKEN, null);
        assertThat(metrics.statusCode()).isEqualTo(403);
        assertThat(metrics.body()).contains("operations role not granted").contains("orders-app");
        assertThat(get("/v1/status", ADMIN_TOKEN, null).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldNeverSendAProjectedColumnsValueOnTheWire() throws Exception {
        for (String format : List.of("binary", "json")) {
            String path = "/v1/stream?from=-1&timeoutMs=0&format=" + format + "&tables=shop.*";
            byte[] admin = getBytes(path, ADMIN_TOKEN, null).body();
            byte[] orders = getBytes(path, ORDERS_TOKEN, null).body();
            // The value is in the buffer (the admin sees it), and never in the projected bytes.
            assertThat(contains(admin, SECRET_SSN)).as(format + " admin").isTrue();
            assertThat(contains(orders, SECRET_SSN)).as(format + " orders-app").isFalse();
            assertThat(contains(orders, "Ada Visible")).as(format + " orders-app").isTrue();
        }
        // Snapshot chunks are not projected yet: refused for a projected principal, not sent whole.
        byte[] snapshot =
                getBytes(
                                "/v1/stream?from=-1&timeoutMs=0&snapshot=start&tables=shop.customers",
                                ORDERS_TOKEN,
                                null)
                        .body();
        assertThat(new String(snapshot, StandardCharsets.UTF_8))
                .contains("snapshot refused: principal=orders-app");
        assertThat(contains(snapshot, SECRET_SSN)).as("snapshot orders-app").isFalse();
        HttpResponse<String> schemas = get("/v1/schemas", ORDERS_TOKEN, null);
        assertThat(schemas.statusCode()).isEqualTo(200);
        assertThat(schemas.body()).contains("customers").contains("name").doesNotContain("ssn");
        assertThat(schemas.body()).doesNotContain("salaries");
    }

    @Test
    void shouldRecognizeTheClientCertificatesPrincipal() throws Exception {
        HttpResponse<String> streamed =
                get(
                        "/v1/stream?from=-1&timeoutMs=0&format=json&tables=shop.orders",
                        null,
                        ordersClient);
        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        assertThat(streamed.body()).contains("10.5");
        HttpResponse<String> status = get("/v1/status", null, ordersClient);
        assertThat(status.statusCode()).isEqualTo(403);
        assertThat(status.body()).contains("orders-app (certificate)");
        // A trusted certificate of a principal the access file does not name may do nothing.
        HttpResponse<String> stranger =
                get("/v1/stream?from=-1&timeoutMs=0&tables=shop.orders", null, strangerClient);
        assertThat(stranger.statusCode()).isEqualTo(403);
        assertThat(stranger.body()).contains("principal=stranger");
    }

    @Test
    void shouldTakeARotatedTokenWithoutRestart() throws Exception {
        String rotated = "orders-token-rotated-5d7f9b1d3f5a7c9e1b3d5f7a9c1e3a5c";
        String path = "/v1/stream?from=-1&timeoutMs=0&tables=shop.orders";
        assertThat(get(path, rotated, null).statusCode()).isEqualTo(401);
        writeAtomically(
                tokens,
                TokenTable.SHA256
                        + TokenTable.hash(rotated)
                        + " orders-app\n"
                        + TokenTable.SHA256
                        + TokenTable.hash(ADMIN_TOKEN)
                        + " admin\n");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get(path, rotated, null).statusCode() == 200);
        assertThat(get(path, ORDERS_TOKEN, null).statusCode()).isEqualTo(401);
        // Put the first token back for the other tests.
        writeAtomically(
                tokens,
                TokenTable.SHA256
                        + TokenTable.hash(ORDERS_TOKEN)
                        + " orders-app\n"
                        + TokenTable.SHA256
                        + TokenTable.hash(ADMIN_TOKEN)
                        + " admin\n");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get(path, ORDERS_TOKEN, null).statusCode() == 200);
    }

    @Test
    void shouldServeARenewedCertificateWithoutRestart() throws Exception {
        BigInteger before = serverCertificate().getSerialNumber();
        TestCertificates.Issued renewed =
                authority.issue("relay", "relay", "localhost", "127.0.0.1");
        assertThat(renewed.certificate().getSerialNumber()).isNotEqualTo(before);
        Awaitility.await()
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () ->
                                serverCertificate()
                                        .getSerialNumber()
                                        .equals(renewed.certificate().getSerialNumber()));
        assertThat(get("/v1/stream?from=-1&timeoutMs=0", ADMIN_TOKEN, null).statusCode())
                .isEqualTo(200);
    }

    /** The certificate the relay shows a new connection. */
    private static X509Certificate serverCertificate() throws Exception {
        HttpResponse<String> response = get("/v1/health", null, null);
        return (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
    }

    private static HttpResponse<String> get(
            String path, String token, TestCertificates.Issued client) throws Exception {
        return client(client).send(request(path, token), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<byte[]> getBytes(
            String path, String token, TestCertificates.Issued client) throws Exception {
        return client(client).send(request(path, token), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** A new client each time: a new connection, so a reloaded certificate is seen. */
    private static HttpClient client(TestCertificates.Issued certificate) throws Exception {
        SSLContext context = authority.sslContext(certificate);
        return HttpClient.newBuilder()
                .sslContext(context)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static HttpRequest request(String path, String token) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("https://localhost:" + relay.httpPort() + path))
                        .timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request.build();
    }

    private static boolean contains(byte[] haystack, String needle) {
        byte[] n = needle.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + n.length <= haystack.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (haystack[i + j] != n[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void writeAtomically(Path file, String text) throws Exception {
        Path temporary = Files.createTempFile(file.getParent(), "tokens", ".tmp");
        Files.writeString(temporary, text);
        Files.move(
                temporary,
                file,
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }
}
