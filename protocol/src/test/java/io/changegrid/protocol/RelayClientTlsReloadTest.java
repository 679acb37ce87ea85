package io.changegrid.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.protocol.tls.RelayCredentials;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.testkit.tls.TestCertificates;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay client re-reads its TLS files when they change: a real HTTPS server that needs client
 * certificates answers each request with the subject of the certificate its client showed, and
 * closes the connection, so every request is a new TLS handshake.
 */
class RelayClientTlsReloadTest {

    @TempDir Path files;
    private Server server;

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void shouldShowTheRenewedCertificateOnTheNextConnectionWhenTheClientsFilesAreReplaced()
            throws Exception {
        TestCertificates authority = TestCertificates.authority(files, "reload test CA");
        TestCertificates.Issued serverCertificate =
                authority.issue("server", "server", "localhost", "127.0.0.1");
        TestCertificates.Issued first = authority.issue("client", "client-before");
        URI url =
                startServer(
                        new TlsConfig(
                                serverCertificate.chainPem(),
                                serverCertificate.keyPem(),
                                null,
                                "",
                                authority.caPem(),
                                "",
                                ClientAuth.NEED));
        RelayCredentials credentials =
                new RelayCredentials(
                        new TlsConfig(
                                first.chainPem(),
                                first.keyPem(),
                                null,
                                "",
                                authority.caPem(),
                                "",
                                ClientAuth.NONE),
                        "");
        try (RelayClient client =
                RelayClient.start("reload", Duration.ofSeconds(5), false, credentials)) {
            assertThat(client.schemas(url, Duration.ofSeconds(5))).isEqualTo("CN=client-before");

            // Renewal as a tool does it: the same file names, replaced by renaming.
            authority.issue("client", "client-after");

            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            String shown = client.schemas(url, Duration.ofSeconds(5));
            while (!shown.equals("CN=client-after") && System.nanoTime() < deadline) {
                Thread.sleep(50); // polling for the watcher, with a deadline
                shown = client.schemas(url, Duration.ofSeconds(5));
            }
            assertThat(shown).isEqualTo("CN=client-after");
        }
    }

    /** An HTTPS server answering every request with its client certificate's subject. */
    private URI startServer(TlsConfig tls) throws Exception {
        server = new Server();
        ServerConnector connector = HttpsConnectors.create(server, tls, "reload-test");
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(
                new Handler.Abstract() {
                    @Override
                    public boolean handle(Request request, Response response, Callback callback) {
                        EndPoint.SslSessionData session =
                                (EndPoint.SslSessionData)
                                        request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
                        String subject =
                                session.peerCertificates()[0].getSubjectX500Principal().getName();
                        response.getHeaders().put(HttpHeader.CONNECTION, "close");
                        Content.Sink.write(response, true, subject, callback);
                        return true;
                    }
                });
        server.start();
        return URI.create("https://localhost:" + connector.getLocalPort());
    }
}
