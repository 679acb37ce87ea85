package io.changegrid.config.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Trust managers that accept the certificates a PEM CA file signs: for clients (the binlog client)
 * that take an {@code SSLContext} rather than a file name.
 */
public final class CaTrust {

    private CaTrust() {}

    /**
     * @param caFile PEM file of one or more CA certificates; null for the JVM's trust store
     * @throws IllegalArgumentException naming the file when it holds no certificate or cannot be
     *     read
     */
    public static TrustManager[] managers(Path caFile) {
        try {
            TrustManagerFactory factory =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (caFile == null) {
                factory.init((KeyStore) null);
                return factory.getTrustManagers();
            }
            Collection<? extends Certificate> certificates;
            try (InputStream in = Files.newInputStream(caFile)) {
                certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("CA file holds no certificate: file=" + caFile);
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int index = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("ca-" + index++, certificate);
            }
            factory.init(store);
            return factory.getTrustManagers();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "CA file not usable: file=" + caFile + ", reason=" + e.getMessage(), e);
        }
    }
}
