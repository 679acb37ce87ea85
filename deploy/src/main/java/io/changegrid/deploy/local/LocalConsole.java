package io.changegrid.deploy.local;

import io.changegrid.console.Console;
import io.changegrid.console.config.ConsoleConfig;
import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import java.util.Map;

/**
 * The quickstart's console: an in-process ZooKeeper for the relay to register in, and the web
 * console reading it (docs/operations.md), on the loopback address.
 */
final class LocalConsole implements AutoCloseable {

    private final EmbeddedZooKeeper zooKeeper;
    private final Console console;

    private LocalConsole(EmbeddedZooKeeper zooKeeper, Console console) {
        this.zooKeeper = zooKeeper;
        this.console = console;
    }

    /**
     * Starts ZooKeeper and the console on {@code port} (0: any free one).
     *
     * @throws Exception if the console cannot listen there
     */
    static LocalConsole start(int port) throws Exception {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        try {
            Console console =
                    Console.start(
                            ConsoleConfig.of(
                                    Map.of(
                                            "cluster.zookeeper", zooKeeper.connectString(),
                                            "http.port", Integer.toString(port))));
            return new LocalConsole(zooKeeper, console);
        } catch (Exception | Error e) {
            zooKeeper.close();
            throw e;
        }
    }

    /** The ZooKeeper the relay registers in. */
    String zooKeeper() {
        return zooKeeper.connectString();
    }

    /** The console's page. */
    String url() {
        return console.url();
    }

    @Override
    public void close() {
        try {
            console.close();
        } finally {
            zooKeeper.close();
        }
    }
}
