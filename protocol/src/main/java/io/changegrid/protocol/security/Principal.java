package io.changegrid.protocol.security;

/**
 * Who a request comes from.
 *
 * @param name the principal's name, as the token file or the access file write it
 * @param by how it was recognized
 */
public record Principal(String name, By by) {

    /** How a principal was recognized. */
    public enum By {
        /** {@code Authorization: Bearer} with a token of the token file. */
        TOKEN,
        /** The TLS client certificate's subject CN or SAN. */
        CERTIFICATE,
        /** Nothing shown, and anonymous access allowed. */
        ANONYMOUS
    }

    /** The name anonymous requests get, and the access file's entry for them. */
    public static final String ANONYMOUS_NAME = "anonymous";

    /** The principal of a request that showed nothing. */
    public static final Principal ANONYMOUS = new Principal(ANONYMOUS_NAME, By.ANONYMOUS);

    @Override
    public String toString() {
        return name + " (" + by.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
