package io.changegrid.protocol.security;

/** Whether requests that show neither a token nor a client certificate are served. */
public enum AnonymousAccess {
    /**
     * Allowed only while the server authenticates nobody: neither tokens nor client certificates
     * are configured.
     */
    AUTO,
    /** Allowed, as the principal {@code anonymous} (the access file's entry of that name). */
    ALLOW,
    /** Refused with 401. */
    DENY
}
