package io.changegrid.testkit.tls;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A test certificate authority made at test time (EC P-256, BouncyCastle), which issues server and
 * client certificates as files a relay or a client is configured with: a PEM chain, a PEM PKCS#8
 * key and a PKCS12 key store. Nothing is checked in; each test class makes its own.
 *
 * <p>Not thread-safe.
 */
public final class TestCertificates {

    /** The password of every PKCS12 store written here. */
    public static final String PASSWORD = "test-password";

    private static final AtomicLong SERIALS = new AtomicLong(System.nanoTime());

    private final Path directory;
    private final KeyPair caKeys;
    private final X509Certificate ca;
    private final Path caPem;

    /**
     * A certificate a CA issued, and its files.
     *
     * @param certificate the leaf
     * @param chainPem the leaf then the CA, PEM
     * @param keyPem the private key, PEM PKCS#8
     * @param keyStore the key and chain, PKCS12 with {@link #PASSWORD}
     */
    public record Issued(X509Certificate certificate, Path chainPem, Path keyPem, Path keyStore) {}

    private TestCertificates(Path directory, KeyPair caKeys, X509Certificate ca, Path caPem) {
        this.directory = directory;
        this.caKeys = caKeys;
        this.ca = ca;
        this.caPem = caPem;
    }

    /** A new CA named {@code commonName}, its certificate written to {@code directory/ca.pem}. */
    public static TestCertificates authority(Path directory, String commonName) throws Exception {
        Files.createDirectories(directory);
        KeyPair keys = keyPair();
        X500Name name = new X500Name("CN=" + commonName);
        X509v3CertificateBuilder builder =
                new JcaX509v3CertificateBuilder(
                        name,
                        BigInteger.valueOf(SERIALS.incrementAndGet()),
                        Date.from(Instant.now().minus(Duration.ofMinutes(5))),
                        Date.from(Instant.now().plus(Duration.ofDays(2))),
                        name,
                        keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
        builder.addExtension(
                Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        X509Certificate ca = sign(builder, keys);
        Path pem = directory.resolve("ca.pem");
        Files.writeString(pem, pem(ca), StandardCharsets.US_ASCII);
        return new TestCertificates(directory, keys, ca, pem);
    }

    /** The CA's certificate as PEM: the trust store of servers and clients. */
    public Path caPem() {
        return caPem;
    }

    /** A trust store of the CA as PKCS12 with {@link #PASSWORD}. */
    public Path caKeyStore() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("ca", ca);
        Path file = directory.resolve("ca.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
        return file;
    }

    /**
     * Issues a certificate for server and client use, its files named {@code <fileName>.*} in the
     * CA's directory (replaced atomically when they exist, as a renewal tool does).
     *
     * @param commonName the subject CN
     * @param alternativeNames SANs: IP addresses as such, others as DNS names
     */
    public Issued issue(String fileName, String commonName, String... alternativeNames)
            throws Exception {
        KeyPair keys = keyPair();
        X509v3CertificateBuilder builder =
                new JcaX509v3CertificateBuilder(
                        ca,
                        BigInteger.valueOf(SERIALS.incrementAndGet()),
                        Date.from(Instant.now().minus(Duration.ofMinutes(5))),
                        Date.from(Instant.now().plus(Duration.ofDays(1))),
                        new X500Name("CN=" + commonName),
                        keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(
                Extension.keyUsage,
                true,
                new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
        builder.addExtension(
                Extension.extendedKeyUsage,
                false,
                new ExtendedKeyUsage(
                        new KeyPurposeId[] {
                            KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                        }));
        if (alternativeNames.length > 0) {
            List<GeneralName> names = new ArrayList<>();
            for (String san : alternativeNames) {
                boolean address = san.matches("[0-9.]+") || san.contains(":");
                names.add(
                        new GeneralName(
                                address ? GeneralName.iPAddress : GeneralName.dNSName, san));
            }
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(names.toArray(new GeneralName[0])));
        }
        X509Certificate leaf = sign(builder, caKeys);
        Path chain = directory.resolve(fileName + ".pem");
        Path key = directory.resolve(fileName + "-key.pem");
        Path store = directory.resolve(fileName + ".p12");
        // Key first, then chain: a watcher that sees the chain change finds the matching key.
        replace(
                key,
                ("-----BEGIN PRIVATE KEY-----\n"
                                + Base64.getMimeEncoder(64, new byte[] {'\n'})
                                        .encodeToString(keys.getPrivate().getEncoded())
                                + "\n-----END PRIVATE KEY-----\n")
                        .getBytes(StandardCharsets.US_ASCII));
        replace(chain, (pem(leaf) + pem(ca)).getBytes(StandardCharsets.US_ASCII));
        KeyStore p12 = KeyStore.getInstance("PKCS12");
        p12.load(null, null);
        p12.setKeyEntry(
                "key", keys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {leaf, ca});
        Path temporary = Files.createTempFile(directory, fileName, ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            p12.store(out, PASSWORD.toCharArray());
        }
        Files.move(temporary, store, StandardCopyOption.ATOMIC_MOVE);
        return new Issued(leaf, chain, key, store);
    }

    /** A JDK SSL context trusting this CA, showing {@code client}'s certificate when not null. */
    public SSLContext sslContext(Issued client) throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory trustManagers =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = null;
        if (client != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (var in = Files.newInputStream(client.keyStore())) {
                keys.load(in, PASSWORD.toCharArray());
            }
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keys, PASSWORD.toCharArray());
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(
                keyManagers == null ? null : keyManagers.getKeyManagers(),
                trustManagers.getTrustManagers(),
                null);
        return context;
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException, OperatorCreationException {
        return new JcaX509CertificateConverter()
                .getCertificate(
                        builder.build(
                                new JcaContentSignerBuilder("SHA256withECDSA")
                                        .build(signer.getPrivate())));
    }

    private static String pem(X509Certificate certificate) throws GeneralSecurityException {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'})
                        .encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }

    private void replace(Path file, byte[] bytes) throws IOException {
        Path temporary = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
        Files.write(temporary, bytes);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    }
}
