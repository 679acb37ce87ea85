package io.changegrid.config.tls;

/**
 * How a database connection uses TLS, in the field's own words (MySQL's {@code --ssl-mode}, libpq's
 * {@code sslmode}), weakest first.
 */
public enum TlsMode {
    /** Plain TCP. */
    DISABLED,
    /** TLS when the server offers it, without checking its certificate; plain otherwise. */
    PREFERRED,
    /** TLS or no connection; the certificate is not checked (encryption without authentication). */
    REQUIRED,
    /** TLS with the server's certificate signed by the CA file (or the JVM's trust store). */
    VERIFY_CA,
    /** As {@link #VERIFY_CA}, and the certificate names the host connected to. */
    VERIFY_IDENTITY;

    /** Whether the server's certificate is checked against a CA. */
    public boolean verifies() {
        return this == VERIFY_CA || this == VERIFY_IDENTITY;
    }
}
