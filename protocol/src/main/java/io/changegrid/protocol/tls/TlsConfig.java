package io.changegrid.protocol.tls;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One side's TLS files, validated ({@link TlsSettings#read}): its own certificate as PEM files or a
 * PKCS12 key store, the certificates it trusts as a PEM CA file or a PKCS12 trust store, and (on a
 * server) whether clients must show a certificate. Immutable.
 *
 * @param certificate PEM certificate chain, leaf first, or null
 * @param privateKey PEM PKCS#8 private key of {@code certificate}, or null
 * @param keyStore PKCS12 key store holding the key and its chain, or null
 * @param keyStorePassword the key store's password (also its key's), empty for none
 * @param trustStore PEM CA certificates or a PKCS12 trust store, or null for the JDK's defaults
 * @param trustStorePassword the PKCS12 trust store's password, empty for none
 * @param clientAuth on a server, whether clients show certificates; {@link ClientAuth#NONE} on a
 *     client
 */
public record TlsConfig(
        Path certificate,
        Path privateKey,
        Path keyStore,
        String keyStorePassword,
        Path trustStore,
        String trustStorePassword,
        ClientAuth clientAuth) {

    /** No TLS files at all: a server speaks plain HTTP, a client trusts the JDK's CAs. */
    public static final TlsConfig NONE =
            new TlsConfig(null, null, null, "", null, "", ClientAuth.NONE);

    public TlsConfig {
        keyStorePassword = keyStorePassword == null ? "" : keyStorePassword;
        trustStorePassword = trustStorePassword == null ? "" : trustStorePassword;
        clientAuth = clientAuth == null ? ClientAuth.NONE : clientAuth;
    }

    /** Whether this side has a certificate of its own (a server then speaks HTTPS). */
    public boolean hasKey() {
        return certificate != null || keyStore != null;
    }

    /** Whether certificates to trust are given (else the JDK's default CAs). */
    public boolean hasTrust() {
        return trustStore != null;
    }

    /** The files to watch for changes: every file given. */
    public List<Path> files() {
        List<Path> files = new ArrayList<>();
        for (Path file : new Path[] {certificate, privateKey, keyStore, trustStore}) {
            if (file != null) {
                files.add(file);
            }
        }
        return files;
    }

    @Override
    public String toString() {
        // Passwords never reach a log line through this record.
        return "TlsConfig[certificate="
                + certificate
                + ", privateKey="
                + privateKey
                + ", keyStore="
                + keyStore
                + ", trustStore="
                + trustStore
                + ", clientAuth="
                + clientAuth
                + "]";
    }
}
