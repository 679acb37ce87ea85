package io.changegrid.protocol.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/**
 * Reads the files a {@link TlsConfig} names into {@link KeyStore}s, with the JDK only: PEM
 * certificates (one or many), a PEM PKCS#8 private key (RSA, EC or EdDSA), or PKCS12 stores. An
 * unreadable file is an {@link IOException} naming it and what was expected; key material is never
 * part of a message.
 */
public final class TlsMaterial {

    /** The password of the in-memory key store built from PEM files; it never leaves the JVM. */
    static final char[] PEM_STORE_PASSWORD = "changegrid-pem".toCharArray();

    private static final String PEM_KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PEM_KEY_END = "-----END PRIVATE KEY-----";
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "EdDSA", "RSASSA-PSS");

    private TlsMaterial() {}

    /** The key store of {@code tls}'s own key: from its PEM files or its PKCS12 store. */
    public static KeyStore keyStore(TlsConfig tls) throws IOException {
        if (tls.keyStore() != null) {
            return pkcs12(tls.keyStore(), tls.keyStorePassword());
        }
        List<Certificate> chain = certificates(tls.certificate());
        PrivateKey key = privateKey(tls.privateKey());
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("key", key, PEM_STORE_PASSWORD, chain.toArray(new Certificate[0]));
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "certificate does not fit its key: certificate="
                            + tls.certificate()
                            + ", privateKey="
                            + tls.privateKey()
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    /** The password the key of {@link #keyStore} is protected with. */
    public static char[] keyPassword(TlsConfig tls) {
        return tls.keyStore() != null ? tls.keyStorePassword().toCharArray() : PEM_STORE_PASSWORD;
    }

    /** The trust store of {@code tls}: a PEM file of CA certificates or a PKCS12 trust store. */
    public static KeyStore trustStore(TlsConfig tls) throws IOException {
        Path file = tls.trustStore();
        if (!isPem(file)) {
            return pkcs12(file, tls.trustStorePassword());
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates(file)) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException("trust store not built: file=" + file + ", reason=" + e, e);
        }
    }

    /** Every certificate of a PEM file, in file order. */
    static List<Certificate> certificates(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            Collection<? extends Certificate> read =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (read.isEmpty()) {
                throw new IOException("no certificate in PEM file: file=" + file);
            }
            return List.copyOf(read);
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "not a PEM certificate file: file=" + file + ", reason=" + e.getMessage(), e);
        }
    }

    static PrivateKey privateKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = text.indexOf(PEM_KEY_BEGIN);
        int end = text.indexOf(PEM_KEY_END);
        if (begin < 0 || end < begin) {
            throw new IOException(
                    "not a PEM PKCS#8 private key (BEGIN PRIVATE KEY): file="
                            + file
                            + "; convert with openssl pkcs8 -topk8 -nocrypt");
        }
        byte[] der;
        try {
            der =
                    Base64.getMimeDecoder()
                            .decode(text.substring(begin + PEM_KEY_BEGIN.length(), end));
        } catch (IllegalArgumentException e) {
            throw new IOException("PEM private key is not base64: file=" + file, e);
        }
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm)
                        .generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // Not this algorithm: PKCS#8 names it inside, the JDK wants it named outside.
            }
        }
        throw new IOException(
                "private key of an unknown algorithm: file=" + file + ", tried=" + KEY_ALGORITHMS);
    }

    private static KeyStore pkcs12(Path file, String password) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IOException(
                    "not a PKCS12 store, or wrong password: file="
                            + file
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    /** Whether {@code file} is PEM text (else a binary store such as PKCS12). */
    public static boolean isPem(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(64);
            return new String(head, StandardCharsets.US_ASCII).contains("-----BEGIN");
        }
    }
}
