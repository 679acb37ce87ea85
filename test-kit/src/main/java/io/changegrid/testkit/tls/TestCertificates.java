package io.changegrid.testkit.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and a server certificate it signs, made at test time with
 * {@code openssl} (run as a process, so no test library brings a crypto provider): for private
 * servers that a test wants to reach over verified TLS.
 *
 * <p>The server certificate names {@code 127.0.0.1} and {@code localhost}, where the private
 * servers listen, so {@code verify-identity} holds; a certificate for another name is made with
 * {@link #create(Path, String)}.
 *
 * @param caFile the CA's certificate (PEM): what a client trusts
 * @param serverCertificate the server's certificate (PEM), signed by the CA
 * @param serverKey the server's private key (PEM, unencrypted, {@code 0600})
 */
public record TestCertificates(Path caFile, Path serverCertificate, Path serverKey) {

    private static final long TIMEOUT_SECONDS = 60;

    /** A CA and a server certificate for {@code 127.0.0.1}/{@code localhost}, in {@code dir}. */
    public static TestCertificates create(Path directory) throws IOException {
        return create(directory, "IP:127.0.0.1,DNS:localhost");
    }

    /**
     * @param subjectAltNames the server certificate's names, in openssl's form ({@code
     *     IP:10.0.0.1,DNS:db1})
     */
    public static TestCertificates create(Path directory, String subjectAltNames)
            throws IOException {
        Files.createDirectories(directory);
        Path caKey = directory.resolve("ca.key");
        Path ca = directory.resolve("ca.pem");
        Path key = directory.resolve("server.key");
        Path request = directory.resolve("server.csr");
        Path certificate = directory.resolve("server.pem");
        Path extensions = directory.resolve("server.ext");
        Files.writeString(
                extensions,
                "subjectAltName=" + subjectAltNames + "\nextendedKeyUsage=serverAuth\n",
                StandardCharsets.US_ASCII);
        openssl(
                directory,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-sha256",
                "-days",
                "2",
                "-subj",
                "/CN=changegrid test CA",
                "-keyout",
                caKey.toString(),
                "-out",
                ca.toString());
        openssl(
                directory,
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-sha256",
                "-subj",
                "/CN=127.0.0.1",
                "-keyout",
                key.toString(),
                "-out",
                request.toString());
        openssl(
                directory,
                "x509",
                "-req",
                "-sha256",
                "-days",
                "2",
                "-in",
                request.toString(),
                "-CA",
                ca.toString(),
                "-CAkey",
                caKey.toString(),
                "-CAcreateserial",
                "-extfile",
                extensions.toString(),
                "-out",
                certificate.toString());
        return new TestCertificates(ca, certificate, key);
    }

    private static void openssl(Path directory, String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(arguments));
        Path log = directory.resolve("openssl.log");
        Process process =
                new ProcessBuilder(command)
                        .directory(directory.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("openssl timed out: command=" + command);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running openssl: command=" + command, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(
                    "openssl failed: exitCode="
                            + process.exitValue()
                            + ", command="
                            + command
                            + ", output:\n"
                            + Files.readString(log));
        }
    }
}
