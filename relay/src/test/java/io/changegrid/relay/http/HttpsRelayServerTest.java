package io.changegrid.relay.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.Config;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.security.AccessControl;
import io.changegrid.relay.security.RelayExposure;
import io.changegrid.relay.stream.StreamHandler;
import io.changegrid.testkit.tls.TestCertificates;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay's HTTP server with real TLS from PKCS12 stores: mutual TLS required ({@code clientAuth:
 * need}), principals named by a certificate's CN or SAN, the operations role on {@code /metrics};
 * and the start warnings about an exposed API.
 */
class HttpsRelayServerTest {

    @TempDir Path dir;

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private RelayHttpServer server;
    private TestCertificates authority;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        buffer.close();
    }

    @Test
    void shouldRefuseAConnectionWithoutCertificateWhenClientAuthIsNeed() throws Exception {
        start("cn");
        TestCertificates.Issued ops = authority.issue("ops", "ops");
        TestCertificates.Issued orders = authority.issue("orders", "orders-app");

        assertThatThrownBy(() -> get("/metrics", null)).isInstanceOf(IOException.class);

        HttpResponse<String> metrics = get("/metrics", ops);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("changegrid_relay_http_connections_open");
        HttpResponse<String> refused = get("/metrics", orders);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("orders-app (certificate)").contains("/metrics");
        assertThat(get("/v1/schemas", orders).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldNameThePrincipalBySanWhenConfigured() throws Exception {
        start("san");
        TestCertificates.Issued bySan = authority.issue("san", "ignored-cn", "ops.example");

        assertThat(get("/metrics", bySan).statusCode()).isEqualTo(200);
        TestCertificates.Issued noSan = authority.issue("nosan", "ops");
        HttpResponse<String> refused = get("/metrics", noSan);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).contains("client certificate names no principal");
    }

    @Test
    void shouldWarnWhenTheApiIsReachableWithoutAuthentication() throws Exception {
        assertThat(RelayExposure.warnIfOpen(config(Map.of("http.host", "0.0.0.0")))).isEqualTo(1);
        assertThat(RelayExposure.warnIfOpen(config(Map.of("http.host", "127.0.0.1")))).isEqualTo(0);
        Path tokens = Files.writeString(dir.resolve("tokens"), "");
        assertThat(
                        RelayExposure.warnIfOpen(
                                config(
                                        Map.of(
                                                "http.host",
                                                "0.0.0.0",
                                                "security.tokens",
                                                tokens.toString()))))
                .as("tokens in clear text")
                .isEqualTo(1);
    }

    private void start(String certificatePrincipal) throws Exception {
        authority = TestCertificates.authority(dir.resolve("tls"), "test CA");
        TestCertificates.Issued relay = authority.issue("relay", "relay", "localhost");
        Path access =
                Files.writeString(
                        dir.resolve("access.yaml"),
                        """
                        principals:
                          ops: {operations: true}
                          ops.example: {operations: true}
                          orders-app: {tables: [shop.*]}
                        """);
        Config config =
                config(
                        Map.of(
                                "http.tls.keyStore",
                                relay.keyStore().toString(),
                                "http.tls.keyStorePassword",
                                TestCertificates.PASSWORD,
                                "http.tls.trustStore",
                                authority.caKeyStore().toString(),
                                "http.tls.trustStorePassword",
                                TestCertificates.PASSWORD,
                                "http.tls.clientAuth",
                                "need",
                                "security.access",
                                access.toString(),
                                "security.certificatePrincipal",
                                certificatePrincipal));
        SchemaRegistry registry = new SchemaRegistry();
        ServingLimits limits = ServingLimits.defaults();
        server =
                new RelayHttpServer(
                        "127.0.0.1",
                        0,
                        () -> null,
                        () -> new RelayHealth("RUNNING", null),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        new StreamHandler(buffer, registry, 0, "none", () -> null, limits),
                        registry,
                        limits,
                        RelaySettings.HTTP_TLS.read(config),
                        AccessControl.from(config));
        server.start();
    }

    private static Config config(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("source.type", "generated");
        return RelaySettings.load(Map.of(), all);
    }

    private HttpResponse<String> get(String path, TestCertificates.Issued client) throws Exception {
        HttpClient http =
                HttpClient.newBuilder()
                        .sslContext(authority.sslContext(client))
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        return http.send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
