package io.changegrid.protocol.tls;

/** Whether a TLS server asks its clients for a certificate (mutual TLS). */
public enum ClientAuth {
    /** No client certificate is asked for. */
    NONE,
    /** A client certificate is asked for; a client without one still connects. */
    WANT,
    /** A client without a certificate the trust store accepts cannot connect. */
    NEED
}
