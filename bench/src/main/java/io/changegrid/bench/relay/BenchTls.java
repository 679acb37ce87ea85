package io.changegrid.bench.relay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.config.PrivateFile;
import io.changegrid.gridkit.tls.LocalCertificates;
import io.changegrid.protocol.security.TokenTable;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.tls.TlsContexts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * {@code --tls}: relays serve HTTPS only and want a bearer token, as docs/security.md sets a grid
 * up, so that a run measures what a secured grid costs beside a plain one. The files are made once
 * per harness run in a private temporary directory ({@code 0700}, removed at exit): a local CA and
 * the relays' certificate for {@code 127.0.0.1} ({@link LocalCertificates}), the stores' password,
 * a token and its token file. Relays get them as settings (secrets as {@code ${file:...}}
 * references), the measuring consumers as {@code --trust-store} and {@code --token-file}, the
 * harness's own status and metrics polls as an SSL context and an {@code Authorization} header.
 *
 * @param directory where the files are; null when TLS is off
 */
public record BenchTls(Path directory) {

    /** Plain HTTP, no token: the default. */
    public static final BenchTls NONE = new BenchTls(null);

    private static BenchTls shared;

    /** The run's TLS files, made on first use. */
    public static synchronized BenchTls shared() {
        if (shared == null) {
            try {
                shared = create();
            } catch (IOException e) {
                throw new UncheckedIOException("TLS files for --tls not made", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted making the TLS files for --tls", e);
            }
        }
        return shared;
    }

    private static BenchTls create() throws IOException, InterruptedException {
        Path directory =
                Files.createTempDirectory(
                        "changegrid-bench-tls-",
                        PosixFilePermissions.asFileAttribute(
                                PosixFilePermissions.fromString("rwx------")));
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> delete(directory), "bench-tls-cleanup"));
        BenchTls tls = new BenchTls(directory);
        byte[] random = new byte[32];
        SecureRandom generator = new SecureRandom();
        generator.nextBytes(random);
        PrivateFile.write(tls.password(), HexFormat.of().formatHex(random));
        new LocalCertificates(directory, tls.password()).create(tls.caPem(), tls.keyStore());
        generator.nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        PrivateFile.write(tls.tokenFile(), token + "\n");
        PrivateFile.write(tls.tokens(), TokenTable.SHA256 + TokenTable.hash(token) + " bench\n");
        System.err.println("--tls: relays serve HTTPS with tokens; files in " + directory);
        return tls;
    }

    /** Whether relays serve HTTPS with tokens. */
    public boolean enabled() {
        return directory != null;
    }

    /** The base URL of a relay on this machine listening on {@code port}. */
    public String url(int port) {
        return (enabled() ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /** Adds {@code http.tls} and {@code security.tokens} to a relay's configuration. */
    void configure(ObjectNode root) {
        if (!enabled()) {
            return;
        }
        ObjectNode http =
                root.get("http") instanceof ObjectNode existing ? existing : root.putObject("http");
        ObjectNode tls = http.putObject("tls");
        tls.put("keyStore", keyStore().toString());
        tls.put("keyStorePassword", "${file:" + password() + "}");
        root.putObject("security").put("tokens", tokens().toString());
    }

    /** The arguments a measuring consumer gets: its trust store and token file. */
    public List<String> consumerArguments() {
        return enabled()
                ? List.of(
                        "--trust-store", caPem().toString(), "--token-file", tokenFile().toString())
                : List.of();
    }

    /** The harness's SSL context trusting the relays, or the JDK's default one. */
    SSLContext sslContext() {
        try {
            return enabled()
                    ? TlsContexts.jdkClient(
                            new TlsConfig(null, null, null, "", caPem(), "", ClientAuth.NONE))
                    : SSLContext.getDefault();
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException("SSL context for --tls not made: " + directory, e);
        }
    }

    /** The {@code Authorization} header's value, or null without TLS. */
    String authorization() {
        if (!enabled()) {
            return null;
        }
        try {
            return "Bearer " + Files.readString(tokenFile()).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("token file not readable: " + tokenFile(), e);
        }
    }

    private Path caPem() {
        return directory.resolve("ca.pem");
    }

    private Path keyStore() {
        return directory.resolve("relay.p12");
    }

    private Path password() {
        return directory.resolve("tls.pass");
    }

    private Path tokens() {
        return directory.resolve("tokens");
    }

    private Path tokenFile() {
        return directory.resolve("bench.token");
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            System.err.println("--tls files not removed: " + directory + ": " + e);
        }
    }
}
