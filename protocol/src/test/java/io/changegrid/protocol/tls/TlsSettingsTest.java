package io.changegrid.protocol.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsSettingsTest {

    static final TlsSettings SERVER = TlsSettings.server("http.tls");
    static final ConfigSchema SCHEMA = new ConfigSchema(SERVER.keys());

    @TempDir Path dir;

    @Test
    void shouldReportEveryProblemNamingItsKeyWhenFilesDoNotFit() {
        assertThatThrownBy(
                        () ->
                                SERVER.read(
                                        SCHEMA.load(
                                                Map.of(),
                                                Map.of(
                                                        "http.tls.certificate",
                                                        dir.resolve("missing.pem").toString(),
                                                        "http.tls.clientAuth",
                                                        "need"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("path=http.tls.certificate")
                .hasMessageContaining("not a readable file")
                .hasMessageContaining("http.tls.certificate and http.tls.privateKey go together")
                .hasMessageContaining("missing key: path=http.tls.trustStore");
    }

    @Test
    void shouldReadTheFilesAndModeWhenComplete() throws Exception {
        Path cert = Files.writeString(dir.resolve("c.pem"), "x");
        Path key = Files.writeString(dir.resolve("k.pem"), "x");
        Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
        TlsConfig tls =
                SERVER.read(
                        SCHEMA.load(
                                Map.of(
                                        "http",
                                        Map.of(
                                                "tls",
                                                Map.of(
                                                        "certificate", cert.toString(),
                                                        "privateKey", key.toString(),
                                                        "trustStore", ca.toString(),
                                                        "keyStorePassword", "pw",
                                                        "clientAuth", "want"))),
                                Map.of()));
        assertThat(tls.hasKey()).isTrue();
        assertThat(tls.clientAuth()).isEqualTo(ClientAuth.WANT);
        assertThat(tls.files()).containsExactly(cert, key, ca);
        assertThat(tls.toString()).doesNotContain("pw");
    }

    @Test
    void shouldDefineClientKeysWithoutClientAuthAndMaskTheToken() {
        assertThat(RelayCredentials.KEYS)
                .extracting(k -> k.path())
                .contains("relay.tls.trustStore", "relay.token")
                .doesNotContain("relay.tls.clientAuth");
        assertThat(RelayCredentials.TOKEN.secret()).isTrue();
        assertThat(new RelayCredentials(TlsConfig.NONE, "abc").toString()).doesNotContain("abc");
    }
}
