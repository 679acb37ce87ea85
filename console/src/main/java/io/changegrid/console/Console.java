package io.changegrid.console;

import io.changegrid.console.config.ConsoleConfig;
import io.changegrid.console.control.GroupOperations;
import io.changegrid.console.grid.GridReader;
import io.changegrid.console.http.ConsoleServer;
import io.changegrid.console.http.RequestAuthenticator;
import io.changegrid.console.sample.Sampler;
import io.changegrid.consumer.group.report.GroupReport;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.net.http.HttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running console: its ZooKeeper session, the sampler and the HTTP server, started together and
 * closed together.
 *
 * <pre>{@code
 * try (Console console = Console.start(ConsoleConfig.of(Map.of("cluster.zookeeper", "zk:2181")),
 *         RequestAuthenticator.UNAUTHENTICATED)) {
 *     System.out.println(console.url());
 * }
 * }</pre>
 *
 * <p>Threading: {@link #start} and {@link #close} from one thread.
 */
public final class Console implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Console.class);

    private final ZooKeeperSession zooKeeper;
    private final Sampler sampler;
    private final ConsoleServer server;

    private Console(ZooKeeperSession zooKeeper, Sampler sampler, ConsoleServer server) {
        this.zooKeeper = zooKeeper;
        this.sampler = sampler;
        this.server = server;
    }

    /**
     * Connects to ZooKeeper, starts sampling and serving.
     *
     * @throws Exception if ZooKeeper does not answer or the port cannot be bound
     */
    public static Console start(ConsoleConfig config, RequestAuthenticator authenticator)
            throws Exception {
        // The group views are Helix's, whose ZooKeeper clients read the JVM's properties only.
        config.zooKeeperTls().applyToJvm();
        ZooKeeperSession zooKeeper =
                ZooKeeperSession.open(
                        config.zooKeeper(), config.sessionTimeout(), null, config.zooKeeperTls());
        HttpClient http = HttpClient.newBuilder().connectTimeout(config.probeTimeout()).build();
        Sampler sampler =
                new Sampler(
                        new GridReader(zooKeeper, new GroupReport(http, config.probeTimeout())),
                        http,
                        config.zooKeeper(),
                        config.sampleInterval(),
                        config.sampleHistory(),
                        config.probeTimeout());
        ConsoleServer server =
                new ConsoleServer(
                        config.httpHost(),
                        config.httpPort(),
                        authenticator,
                        sampler::state,
                        new GroupOperations(zooKeeper, sampler::grid),
                        sampler::sampleSoon);
        Console console = new Console(zooKeeper, sampler, server);
        try {
            sampler.start();
            server.start();
        } catch (Exception | Error e) {
            console.close();
            throw e;
        }
        LOG.info("console started: url={}, zookeeper={}", server.url(), config.zooKeeper());
        return console;
    }

    /** The pages' address, {@code http://host:port/}. */
    public String url() {
        return server.url();
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            sampler.close();
            zooKeeper.close();
            LOG.info("console stopped");
        }
    }
}
