package io.changegrid.console.config;

import io.changegrid.config.Config;
import io.changegrid.protocol.security.SecurityConfig;
import io.changegrid.protocol.security.SecuritySettings;
import io.changegrid.protocol.tls.RelayCredentials;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import java.time.Duration;
import java.util.Map;

/**
 * The console's validated settings.
 *
 * @param zooKeeper the grid's ZooKeeper connect string
 * @param sessionTimeout the console's ZooKeeper session timeout
 * @param httpHost the address the pages and API listen on
 * @param httpPort their port; 0 for any free one
 * @param sampleInterval how often the grid is sampled
 * @param sampleHistory how far back the charts reach
 * @param probeTimeout how long one component's answer is waited for
 * @param tls HTTPS and client certificates of the pages and API ({@code http.tls.*})
 * @param security who may use the console ({@code security.*})
 * @param credentials what the console shows relays and members' status endpoints ({@code
 *     relay.tls.*}, {@code relay.token})
 * @param zooKeeperTls TLS to ZooKeeper ({@code cluster.zookeeperTls.*})
 */
public record ConsoleConfig(
        String zooKeeper,
        Duration sessionTimeout,
        String httpHost,
        int httpPort,
        Duration sampleInterval,
        Duration sampleHistory,
        Duration probeTimeout,
        TlsConfig tls,
        SecurityConfig security,
        RelayCredentials credentials,
        ZooKeeperTls zooKeeperTls) {

    /** From a configuration loaded with {@link ConsoleSettings#SCHEMA}. */
    public static ConsoleConfig from(Config config) {
        return new ConsoleConfig(
                config.get(ConsoleSettings.ZOOKEEPER),
                config.get(ConsoleSettings.SESSION_TIMEOUT),
                config.get(ConsoleSettings.HTTP_HOST),
                config.get(ConsoleSettings.HTTP_PORT),
                config.get(ConsoleSettings.SAMPLE_INTERVAL),
                config.get(ConsoleSettings.SAMPLE_HISTORY),
                config.get(ConsoleSettings.PROBE_TIMEOUT),
                ConsoleSettings.HTTP_TLS.read(config),
                SecuritySettings.read(config),
                RelayCredentials.read(config),
                ZooKeeperTls.read(config));
    }

    /** From {@code key=value} settings, as a test or an embedding process gives them. */
    public static ConsoleConfig of(Map<String, String> settings) {
        return from(ConsoleSettings.SCHEMA.load(Map.of(), settings));
    }
}
