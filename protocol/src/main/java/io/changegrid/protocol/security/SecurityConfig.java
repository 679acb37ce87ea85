package io.changegrid.protocol.security;

import java.nio.file.Path;

/**
 * A server's validated {@code security.*} settings ({@link SecuritySettings}). Immutable.
 *
 * @param tokens the token file, or null for no tokens
 * @param access the access file, or null: every principal may do everything
 * @param anonymous whether requests that show nothing are served
 * @param certificatePrincipal which name of a client certificate is the principal
 */
public record SecurityConfig(
        Path tokens,
        Path access,
        AnonymousAccess anonymous,
        CertificatePrincipal certificatePrincipal) {

    /** No tokens, no access file, anonymous as {@link AnonymousAccess#AUTO} decides. */
    public static final SecurityConfig NONE =
            new SecurityConfig(null, null, AnonymousAccess.AUTO, CertificatePrincipal.CN);

    public SecurityConfig {
        anonymous = anonymous == null ? AnonymousAccess.AUTO : anonymous;
        certificatePrincipal =
                certificatePrincipal == null ? CertificatePrincipal.CN : certificatePrincipal;
    }
}
