/**
 * TLS and credentials on both ends of our HTTP connections, defined once: the settings shape
 * ({@link io.changegrid.protocol.tls.TlsSettings}) a relay, a status endpoint and every relay
 * client share, reading PEM and PKCS12 files ({@link io.changegrid.protocol.tls.TlsMaterial}),
 * Jetty's TLS contexts and HTTPS connectors re-read when their files change ({@link
 * io.changegrid.protocol.tls.HttpsConnectors}), and what a client sends ({@link
 * io.changegrid.protocol.tls.RelayCredentials}). docs/security.md describes their use.
 */
package io.changegrid.protocol.tls;
