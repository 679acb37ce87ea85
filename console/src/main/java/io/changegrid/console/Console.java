package io.changegrid.console;

import io.changegrid.console.config.ConsoleConfig;
import io.changegrid.console.control.GroupOperations;
import io.changegrid.console.grid.GridReader;
import io.changegrid.console.http.ConsoleServer;
import io.changegrid.console.http.OperatorAccess;
import io.changegrid.console.sample.Sampler;
import io.changegrid.consumer.group.report.GroupReport;
import io.changegrid.protocol.security.Listening;
import io.changegrid.protocol.tls.TlsContexts;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.net.http.HttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running console: its ZooKeeper session, the sampler and the HTTP server, started together and
 * closed together.
 *
 * <pre>{@code
 * try (Console console = Console.start(ConsoleConfig.of(Map.of("cluster.zookeeper", "zk:2181")))) {
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
     * Connects to ZooKeeper, starts sampling and serving, letting in whom {@code config}'s {@code
     * security.*} and {@code http.tls.*} allow.
     *
     * @throws Exception if ZooKeeper does not answer, a security file cannot be read or the port
     *     cannot be bound
     */
    public static Console start(ConsoleConfig config) throws Exception {
        return start(config, OperatorAccess.from(config.security(), config.tls().clientAuth()));
    }

    /**
     * Connects to ZooKeeper, starts sampling and serving, letting in whom {@code access} allows.
     *
     * @throws Exception if ZooKeeper does not answer or the port cannot be bound
     */
    public static Console start(ConsoleConfig config, OperatorAccess access) throws Exception {
        if (!access.authenticates() && !Listening.isLoopback(config.httpHost())) {
            LOG.warn(
                    "!!! INSECURE: the console listens on a non-loopback address without"
                            + " authentication: http.host={}, security.tokens and http.tls.clientAuth"
                            + " unset; anyone who reaches the port can pause and rewind consumer groups."
                            + " See docs/operations.md.",
                    config.httpHost());
        }
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(config.probeTimeout());
        if (config.credentials().tls().hasKey() || config.credentials().tls().hasTrust()) {
            client.sslContext(TlsContexts.jdkClient(config.credentials().tls()));
        }
        HttpClient http = client.build();
        // The group views are Helix's, whose ZooKeeper clients read the JVM's properties only.
        config.zooKeeperTls().applyToJvm();
        ZooKeeperSession zooKeeper =
                ZooKeeperSession.open(
                        config.zooKeeper(), config.sessionTimeout(), null, config.zooKeeperTls());
        Sampler sampler =
                new Sampler(
                        new GridReader(zooKeeper, new GroupReport(http, config.probeTimeout())),
                        http,
                        config.zooKeeper(),
                        config.sampleInterval(),
                        config.sampleHistory(),
                        config.probeTimeout(),
                        config.credentials().bearerToken());
        ConsoleServer server =
                new ConsoleServer(
                        config.httpHost(),
                        config.httpPort(),
                        config.tls(),
                        access,
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
