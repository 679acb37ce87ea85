package io.changegrid.consumer.group.config;

import static io.changegrid.consumer.config.ConsumerSettings.*;
import static io.changegrid.consumer.group.config.GroupSettings.*;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperCredentials;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The validated settings of one member of a consumer group (the {@code cluster.*} keys). Immutable.
 *
 * @param zooKeeper the ZooKeeper connect string
 * @param group the group's name
 * @param instance this member's name, unique in the group
 * @param partitions the number of partitions the group shares ({@code subscription.partitions})
 * @param quorum members that must be up before a group with none running assigns partitions
 * @param sessionTimeout the ZooKeeper session timeout of the member's sessions
 * @param relaySource the source whose registered relays are used when no relays are configured
 * @param statusHost the status endpoint's address
 * @param statusPort the status endpoint's port; -1 for none, 0 for any free port
 * @param statusTls TLS of the status endpoint ({@code cluster.status.tls.*})
 * @param credentials the group's ZooKeeper credentials, or null for none
 * @param zooKeeperTls TLS to ZooKeeper ({@code cluster.zookeeperTls.*})
 */
public record GroupConfig(
        String zooKeeper,
        String group,
        String instance,
        int partitions,
        int quorum,
        Duration sessionTimeout,
        int relaySource,
        String statusHost,
        int statusPort,
        TlsConfig statusTls,
        ZooKeeperCredentials credentials,
        ZooKeeperTls zooKeeperTls) {

    public GroupConfig {
        statusTls = statusTls == null ? TlsConfig.NONE : statusTls;
        zooKeeperTls = zooKeeperTls == null ? ZooKeeperTls.NONE : zooKeeperTls;
    }

    /**
     * Settings whose status endpoint, if any, speaks plain HTTP, without ZooKeeper authentication.
     */
    public GroupConfig(
            String zooKeeper,
            String group,
            String instance,
            int partitions,
            int quorum,
            Duration sessionTimeout,
            int relaySource,
            String statusHost,
            int statusPort) {
        this(
                zooKeeper,
                group,
                instance,
                partitions,
                quorum,
                sessionTimeout,
                relaySource,
                statusHost,
                statusPort,
                TlsConfig.NONE,
                null,
                ZooKeeperTls.NONE);
    }

    /** Whether the settings make this consumer a group member ({@code cluster.zookeeper} set). */
    public static boolean isMember(Config config) {
        return !config.get(CLUSTER_ZOOKEEPER).isBlank();
    }

    /**
     * The group settings of a loaded configuration, checking the rules that span keys.
     *
     * @throws ConfigException listing every problem, each naming its keys
     * @throws IllegalArgumentException if the configuration makes no group member
     */
    public static GroupConfig from(Config config) {
        if (!isMember(config)) {
            throw new IllegalArgumentException("not a group member: cluster.zookeeper is empty");
        }
        List<String> problems = new ArrayList<>();
        if (config.get(CLUSTER_GROUP).isEmpty()) {
            problems.add(
                    "missing required key: path=cluster.group (the group's name, required with"
                            + " cluster.zookeeper)");
        }
        if (config.get(SUBSCRIPTION_PARTITION) != 0) {
            problems.add(
                    "bad value: path=subscription.partition, value="
                            + config.get(SUBSCRIPTION_PARTITION)
                            + ": a group assigns its members' partitions; leave it out with"
                            + " cluster.zookeeper");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        String instance = config.get(CLUSTER_INSTANCE);
        return new GroupConfig(
                config.get(CLUSTER_ZOOKEEPER).trim(),
                config.get(CLUSTER_GROUP),
                instance.isEmpty() ? defaultInstance() : instance,
                config.get(SUBSCRIPTION_PARTITIONS),
                config.get(CLUSTER_QUORUM),
                config.get(CLUSTER_SESSION_TIMEOUT),
                config.get(CLUSTER_RELAY_SOURCE),
                config.get(CLUSTER_STATUS_HOST),
                config.get(CLUSTER_STATUS_PORT),
                STATUS_TLS.read(config),
                ZooKeeperCredentials.of(
                        config.get(CLUSTER_AUTH.user()), config.get(CLUSTER_AUTH.password())),
                ZooKeeperTls.read(config));
    }

    /** {@code host-pid}: unique on a network, though not stable across restarts. */
    static String defaultInstance() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + ProcessHandle.current().pid();
    }
}
