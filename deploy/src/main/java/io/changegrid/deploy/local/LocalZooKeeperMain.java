package io.changegrid.deploy.local;

import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import io.changegrid.service.RequestedStop;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A standalone ZooKeeper server for a local multi-process grid, from the real ZooKeeper jar: a free
 * port on 127.0.0.1, a data directory removed when it stops. Once it accepts clients it writes its
 * connect string to {@code <dir>/zookeeper.connect}; it runs until SIGTERM.
 */
@Command(
        name = "local-zookeeper",
        mixinStandardHelpOptions = true,
        description = "Runs a ZooKeeper server for a local grid until SIGTERM.")
public final class LocalZooKeeperMain implements Callable<Integer> {

    /** The file holding the connect string, in the directory given. */
    public static final String CONNECT_FILE = "zookeeper.connect";

    @Option(names = "--dir", required = true, description = "Where to write " + CONNECT_FILE + ".")
    Path directory;

    @Option(
            names = "--key-store",
            description =
                    "A PKCS12 key store: the only client port then speaks TLS (secureClientPort).")
    Path keyStore;

    @Option(names = "--key-store-password-file", description = "The file holding its password.")
    Path keyStorePasswordFile;

    @Option(
            names = "--trust-store",
            description = "PEM CA certificates of the clients' certificates (needed with TLS).")
    Path trustStore;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalZooKeeperMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(directory);
        CountDownLatch stopped = new CountDownLatch(1);
        EmbeddedZooKeeper zooKeeper = keyStore == null ? EmbeddedZooKeeper.start() : startSecure();
        Runnable stop =
                () -> {
                    zooKeeper.close();
                    stopped.countDown();
                };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "zookeeper-stop"));
        RequestedStop.install("zookeeper", stop);
        writeAtomically(directory.resolve(CONNECT_FILE), zooKeeper.connectString());
        System.out.println("ZooKeeper ready: " + zooKeeper.connectString());
        stopped.await();
        System.out.println("ZooKeeper stopped");
        return 0;
    }

    /**
     * ZooKeeper's server reads its TLS settings from this JVM's properties; the password from a
     * file ({@code passwordPath}), so that it is in no property and on no command line.
     */
    private EmbeddedZooKeeper startSecure() {
        System.setProperty("zookeeper.ssl.keyStore.location", keyStore.toString());
        System.setProperty("zookeeper.ssl.keyStore.type", "PKCS12");
        System.setProperty("zookeeper.ssl.keyStore.passwordPath", keyStorePasswordFile.toString());
        System.setProperty("zookeeper.ssl.trustStore.location", trustStore.toString());
        System.setProperty("zookeeper.ssl.trustStore.type", "PEM");
        return EmbeddedZooKeeper.startSecure();
    }

    /** Writes a file other processes poll for: they see it whole or not at all. */
    static void writeAtomically(Path file, String text) throws java.io.IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    }
}
