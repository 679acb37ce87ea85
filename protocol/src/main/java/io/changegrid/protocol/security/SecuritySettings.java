package io.changegrid.protocol.security;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import java.nio.file.Path;
import java.util.List;

/**
 * The authentication and authorization keys every server of the grid that checks principals puts
 * into its schema ({@code security.*}: the relay, the console), defined once here, and read back
 * with {@link #read}.
 */
public final class SecuritySettings {

    public static final ConfigKey<String> TOKENS =
            ConfigKey.of(
                    "security.tokens",
                    ValueKind.STRING,
                    "",
                    "Token file: one line per bearer token, sha256:<hex of the token's SHA-256> <principal>;"
                            + " re-read when it changes, so tokens rotate without a restart (docs/security.md)."
                            + " Empty: no tokens.");
    public static final ConfigKey<String> ACCESS =
            ConfigKey.of(
                    "security.access",
                    ValueKind.STRING,
                    "",
                    "Access file: per principal the tables it may stream, their columns, the schemas it may"
                            + " read and the operations role; re-read when it changes. Empty: every principal"
                            + " may do everything.");
    public static final ConfigKey<AnonymousAccess> ANONYMOUS =
            ConfigKey.of(
                    "security.anonymous",
                    ValueKind.oneOf(AnonymousAccess.class),
                    AnonymousAccess.AUTO,
                    "Requests showing neither token nor client certificate: auto (served only while"
                            + " neither security.tokens nor http.tls.clientAuth is set), allow (as principal"
                            + " anonymous) or deny (401).");
    public static final ConfigKey<CertificatePrincipal> CERTIFICATE_PRINCIPAL =
            ConfigKey.of(
                    "security.certificatePrincipal",
                    ValueKind.oneOf(CertificatePrincipal.class),
                    CertificatePrincipal.CN,
                    "Which name of a client certificate is the principal: cn (subject common name) or"
                            + " san (first DNS, URI or e-mail subject alternative name).");

    /** Every key, in documentation order. */
    public static final List<ConfigKey<?>> KEYS =
            List.of(TOKENS, ACCESS, ANONYMOUS, CERTIFICATE_PRINCIPAL);

    private SecuritySettings() {}

    /** The security settings of a loaded configuration whose schema holds {@link #KEYS}. */
    public static SecurityConfig read(Config config) {
        return new SecurityConfig(
                path(config.get(TOKENS)),
                path(config.get(ACCESS)),
                config.get(ANONYMOUS),
                config.get(CERTIFICATE_PRINCIPAL));
    }

    private static Path path(String text) {
        return text == null || text.isBlank() ? null : Path.of(text.trim());
    }
}
