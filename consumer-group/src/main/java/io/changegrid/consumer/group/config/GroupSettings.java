package io.changegrid.consumer.group.config;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigSchema;
import io.changegrid.config.ValueKind;
import io.changegrid.config.ZooKeeperAuthKeys;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.protocol.tls.TlsSettings;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of a consumer group member, defined once: the {@code cluster.*} keys. {@link
 * #SCHEMA} is every key of a consumer process ({@code ConsumerMain}): the library's ({@link
 * ConsumerSettings}) followed by these; the reference page docs/consumer-configuration.md is
 * generated from it.
 */
public final class GroupSettings {

    public static final ConfigKey<String> CLUSTER_ZOOKEEPER =
            ConfigKey.of(
                    "cluster.zookeeper",
                    ValueKind.STRING,
                    "",
                    "ZooKeeper connect string (host:port,host:port[/chroot]) of a consumer group: the"
                            + " members share subscription.partitions partitions, balanced by Helix, with"
                            + " their checkpoints in ZooKeeper (docs/cluster.md). Empty: a single consumer.");
    public static final ConfigKey<String> CLUSTER_GROUP =
            ConfigKey.of(
                            "cluster.group",
                            ValueKind.STRING,
                            "",
                            "The consumer group's name; members with the same name share its partitions."
                                    + " Required with cluster.zookeeper.")
                    .validatedBy(
                            v -> v.isEmpty() || v.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}"),
                            "letters, digits, '_', '.', '-' (at most 100)");
    public static final ConfigKey<String> CLUSTER_INSTANCE =
            ConfigKey.of(
                            "cluster.instance",
                            ValueKind.STRING,
                            "",
                            "This member's name, unique in the group and best kept across restarts (empty:"
                                    + " host-pid).")
                    .validatedBy(
                            v -> v.isEmpty() || v.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}"),
                            "letters, digits, '_', '.', '-' (at most 100)");
    public static final ConfigKey<Integer> CLUSTER_QUORUM =
            ConfigKey.of(
                            "cluster.quorum",
                            ValueKind.INT,
                            1,
                            "Members that must be up before a group that has none running assigns any"
                                    + " partition, so that the first one does not take them all.")
                    .validatedBy(v -> v >= 1 && v <= 1000, "1..1000");
    public static final ConfigKey<Duration> CLUSTER_SESSION_TIMEOUT =
            ConfigKey.of(
                            "cluster.sessionTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(30),
                            "ZooKeeper session timeout: a member that crashed or stopped answering keeps its"
                                    + " partitions this long before they move. The server bounds it (by default"
                                    + " 2 to 20 ticks).")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofSeconds(1)) >= 0
                                            && v.compareTo(Duration.ofMinutes(10)) <= 0,
                            "1s..10m");

    /** The group's ZooKeeper credentials: its checkpoints and epochs are its alone to write. */
    public static final ZooKeeperAuthKeys CLUSTER_AUTH =
            ZooKeeperAuthKeys.forRole("this consumer group's members");

    public static final ConfigKey<Integer> CLUSTER_RELAY_SOURCE =
            ConfigKey.of(
                            "cluster.relaySource",
                            ValueKind.INT,
                            1,
                            "The source id whose relays a group member finds in ZooKeeper when relays is"
                                    + " empty (relays register with cluster.zookeeper set).")
                    .validatedBy(v -> v >= 0 && v <= 65535, "0..65535");
    public static final ConfigKey<String> CLUSTER_STATUS_HOST =
            ConfigKey.of(
                    "cluster.status.host",
                    ValueKind.STRING,
                    "127.0.0.1",
                    "Address the status endpoint listens on (a group member's, or a standalone"
                            + " consumer's).");
    public static final ConfigKey<Integer> CLUSTER_STATUS_PORT =
            ConfigKey.of(
                            "cluster.status.port",
                            ValueKind.INT,
                            -1,
                            "Port of the status endpoint, GET /v1/status and GET /metrics, of a group"
                                    + " member or a standalone consumer (its stream as partition 0 of"
                                    + " group standalone); -1: none; 0: any free port.")
                    .validatedBy(v -> v >= -1 && v < 65536, "-1..65535");

    /** TLS of the status endpoint, {@code cluster.status.tls.*}: the shape every TLS end shares. */
    public static final TlsSettings STATUS_TLS = TlsSettings.server("cluster.status.tls");

    /** Every key of a consumer process: the library's, then the group's. */
    public static final ConfigSchema SCHEMA = schema();

    private GroupSettings() {}

    private static ConfigSchema schema() {
        List<ConfigKey<?>> keys = new ArrayList<>(ConsumerSettings.SCHEMA.keys());
        keys.addAll(
                List.of(
                        CLUSTER_ZOOKEEPER,
                        CLUSTER_GROUP,
                        CLUSTER_INSTANCE,
                        CLUSTER_QUORUM,
                        CLUSTER_SESSION_TIMEOUT,
                        CLUSTER_RELAY_SOURCE,
                        CLUSTER_STATUS_HOST,
                        CLUSTER_STATUS_PORT,
                        CLUSTER_AUTH.user(),
                        CLUSTER_AUTH.password()));
        keys.addAll(STATUS_TLS.keys());
        keys.addAll(ZooKeeperTls.KEYS);
        return new ConfigSchema(keys);
    }
}
