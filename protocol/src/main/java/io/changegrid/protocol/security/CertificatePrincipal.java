package io.changegrid.protocol.security;

/**
 * Which name of a client certificate is the principal's ({@code security.certificatePrincipal}).
 */
public enum CertificatePrincipal {
    /** The subject's common name, e.g. {@code CN=orders-app}. */
    CN,
    /** The first subject alternative name of type DNS, URI or e-mail. */
    SAN
}
