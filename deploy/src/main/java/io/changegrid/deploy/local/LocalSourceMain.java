package io.changegrid.deploy.local;

import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A private MariaDB source for a local multi-process grid: the installed server on its own data
 * directory and a free port, with a binlog, a replication user and the demo schema {@code shop}.
 * Once it accepts connections it writes {@code <dir>/source.properties} (host, port, replication
 * user, root user); it runs until SIGTERM, and its data goes with it.
 */
@Command(
        name = "local-source",
        mixinStandardHelpOptions = true,
        description = "Runs a private MariaDB with a binlog for a local grid until SIGTERM.")
public final class LocalSourceMain implements Callable<Integer> {

    /** The file describing the source, in the directory given. */
    public static final String PROPERTIES_FILE = "source.properties";

    @Option(
            names = "--dir",
            required = true,
            description = "Where to write " + PROPERTIES_FILE + ".")
    Path directory;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalSourceMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(directory);
        CountDownLatch stopped = new CountDownLatch(1);
        MariaDbServer server = MariaDbServer.start(MariaDbConfig.defaults());
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    server.close();
                                    stopped.countDown();
                                },
                                "source-stop"));
        try (Connection connection = server.connect()) {
            DemoLoad.createSchema(connection, io.changegrid.gridkit.load.LoadDialect.MARIADB);
        }
        Properties properties = new Properties();
        properties.setProperty("host", server.host());
        properties.setProperty("port", Integer.toString(server.port()));
        properties.setProperty("user", server.user());
        properties.setProperty("password", server.password());
        properties.setProperty("rootUser", server.rootUser());
        properties.setProperty("rootPassword", server.rootPassword());
        StringWriter text = new StringWriter();
        properties.store(text, "private MariaDB of a local grid");
        // The replication and root passwords: readable by this user only.
        io.changegrid.config.PrivateFile.write(directory.resolve(PROPERTIES_FILE), text.toString());
        System.out.println("source ready: " + server.host() + ":" + server.port());
        stopped.await();
        return 0;
    }
}
