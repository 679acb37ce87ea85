package io.changegrid.gridkit.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A local CA and one server certificate signed by it, made with the JDK's {@code keytool} (no other
 * tool needed): EC P-256 keys, valid 30 days, the server's for {@code 127.0.0.1} and {@code
 * localhost}, usable as client certificate too. For local grids and benchmarks ({@code
 * local-cluster.sh --secure}, {@code bin/bench --tls}); tests use test-kit's TestCertificates. The
 * stores' password is read by keytool from a file ({@code -storepass:file}), never put on its
 * command line.
 */
public final class LocalCertificates {

    private static final String VALIDITY_DAYS = "30";
    private static final long STEP_TIMEOUT_SECONDS = 60;

    private final Path directory;
    private final Path passwordFile;
    private final String keytool;

    /**
     * @param directory where the files are made (the CA's key stays there)
     * @param passwordFile holds the stores' password, one line
     */
    public LocalCertificates(Path directory, Path passwordFile) {
        this.directory = directory;
        this.passwordFile = passwordFile;
        this.keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    }

    /**
     * Makes {@code ca.p12} (the CA's key, kept beside), {@code caPem} and {@code serverStore} (the
     * server's key with its chain), each owner-only.
     *
     * @throws IOException naming the step that failed, with keytool's output
     */
    public void create(Path caPem, Path serverStore) throws IOException, InterruptedException {
        Path caStore = directory.resolve("ca.p12");
        Path request = directory.resolve("server.csr");
        Path signed = directory.resolve("server.pem");
        run(
                "CA key",
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=changegrid local CA",
                "-ext",
                "bc:c",
                "-validity",
                VALIDITY_DAYS,
                "-storetype",
                "PKCS12",
                "-keystore",
                caStore.toString());
        run(
                "CA certificate",
                "-exportcert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                caStore.toString(),
                "-file",
                caPem.toString());
        run(
                "server key",
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-validity",
                VALIDITY_DAYS,
                "-storetype",
                "PKCS12",
                "-keystore",
                serverStore.toString());
        run(
                "server request",
                "-certreq",
                "-alias",
                "server",
                "-keystore",
                serverStore.toString(),
                "-file",
                request.toString());
        run(
                "server certificate",
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                caStore.toString(),
                "-infile",
                request.toString(),
                "-outfile",
                signed.toString(),
                "-rfc",
                "-validity",
                VALIDITY_DAYS,
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-ext",
                "eku=serverAuth,clientAuth");
        // The chain is built from the CA in the store: import it first, then the reply.
        run(
                "CA into the server's store",
                "-importcert",
                "-noprompt",
                "-alias",
                "ca",
                "-file",
                caPem.toString(),
                "-keystore",
                serverStore.toString());
        run(
                "server certificate into its store",
                "-importcert",
                "-alias",
                "server",
                "-file",
                signed.toString(),
                "-keystore",
                serverStore.toString());
        Files.delete(request);
        for (Path file : List.of(caStore, serverStore, caPem, signed)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    private void run(String step, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(keytool));
        command.addAll(List.of(args));
        command.addAll(
                List.of(
                        "-storepass:file",
                        passwordFile.toString(),
                        "-keypass:file",
                        passwordFile.toString()));
        Path output = directory.resolve("keytool.out");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
        if (!process.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("keytool did not finish in time: step=" + step);
        }
        String said = Files.readString(output).trim();
        Files.delete(output);
        if (process.exitValue() != 0) {
            throw new IOException(
                    "keytool failed: step="
                            + step
                            + ", exit="
                            + process.exitValue()
                            + ", output="
                            + said);
        }
    }
}
