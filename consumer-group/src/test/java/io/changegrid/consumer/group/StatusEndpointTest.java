package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.testkit.tls.TestCertificates;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A group member's status endpoint over real TLS, with client certificates required. */
class StatusEndpointTest {

    @TempDir Path dir;

    @Test
    void shouldServeStatusOverHttpsOnlyToTrustedClientsWhenClientAuthIsNeed() throws Exception {
        TestCertificates authority = TestCertificates.authority(dir, "test CA");
        TestCertificates.Issued member = authority.issue("member", "member", "localhost");
        TestCertificates.Issued monitor = authority.issue("monitor", "monitor");
        TlsConfig tls =
                new TlsConfig(
                        member.chainPem(),
                        member.keyPem(),
                        null,
                        "",
                        authority.caPem(),
                        "",
                        ClientAuth.NEED);
        GroupStatus status = new GroupStatus("g", "m-1", true, false, List.of(), List.of());
        try (StatusEndpoint endpoint =
                new StatusEndpoint("127.0.0.1", 0, tls, () -> status, () -> "up 1\n")) {
            endpoint.start();
            assertThat(endpoint.url()).startsWith("https://127.0.0.1:");
            URI uri = URI.create(endpoint.url().replace("127.0.0.1", "localhost") + "/v1/status");

            HttpResponse<String> answered = get(authority, monitor, uri);
            assertThat(answered.statusCode()).isEqualTo(200);
            assertThat(answered.body()).contains("\"instance\":\"m-1\"");
            assertThatThrownBy(() -> get(authority, null, uri)).isInstanceOf(IOException.class);

            URI metrics = URI.create(endpoint.url().replace("127.0.0.1", "localhost") + "/metrics");
            HttpResponse<String> scraped = get(authority, monitor, metrics);
            assertThat(scraped.statusCode()).isEqualTo(200);
            assertThat(scraped.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("text/plain; version=0.0.4");
            assertThat(scraped.body()).isEqualTo("up 1\n");
            assertThatThrownBy(() -> get(authority, null, metrics)).isInstanceOf(IOException.class);
        }
    }

    private static HttpResponse<String> get(
            TestCertificates authority, TestCertificates.Issued client, URI uri) throws Exception {
        return HttpClient.newBuilder()
                .sslContext(authority.sslContext(client))
                .connectTimeout(Duration.ofSeconds(5))
                .build()
                .send(
                        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
