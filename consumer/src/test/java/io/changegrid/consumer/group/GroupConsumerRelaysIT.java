package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.discovery.RelayRegistration;
import io.changegrid.consumer.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which registered relays a group member takes as replicas: only those that publish all of what it
 * subscribes to. The relays here are registrations only; the partitions' consumers find nobody
 * answering, which does not matter for the choice.
 */
class GroupConsumerRelaysIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final String SELECTS_EVERYTHING =
            "\"selects\":[{\"include\":[\"*.*\"],\"exclude\":[],\"where\":false,\"renames\":false}]";

    private static void register(ZooKeeperSession zooKeeper, int source, int port, String capture)
            throws Exception {
        zooKeeper.createPath(RelayRegistration.sourcePath(source));
        byte[] data =
                ("{\"sourceId\":"
                                + source
                                + ",\"endpoint\":\"http://127.0.0.1:"
                                + port
                                + "\","
                                + capture
                                + "}")
                        .getBytes(StandardCharsets.UTF_8);
        zooKeeper.call(
                zk ->
                        zk.create(
                                RelayRegistration.sourcePath(source) + "/127.0.0.1_" + port,
                                data,
                                ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                CreateMode.EPHEMERAL));
    }

    private static GroupConsumer member(String group, int source, Map<String, Object> subscription)
            throws Exception {
        Map<String, Object> settings = new HashMap<>(subscription);
        settings.put("cluster.zookeeper", ZOOKEEPER.zooKeeper().connectString());
        settings.put("cluster.group", group);
        settings.put("cluster.instance", "m0");
        settings.put("cluster.sessionTimeout", "4s");
        settings.put("cluster.relaySource", source);
        settings.put("subscription.partitions", 2);
        return GroupConsumer.start(
                PartitionConfigs.of(settings, List.of()),
                assignment -> event -> CallbackResult.SUCCESS);
    }

    @Test
    void shouldTakeOnlyTheRelayCapturingEveryTableWhenTheSubscriptionWantsAllTables()
            throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        try (ZooKeeperSession relays = ZooKeeperSession.open(connect, SESSION)) {
            register(relays, 21, 7101, "\"include\":[],\"exclude\":[]," + SELECTS_EVERYTHING);
            register(
                    relays,
                    21,
                    7102,
                    "\"include\":[\"shop.orders\"],\"exclude\":[]," + SELECTS_EVERYTHING);
            register(
                    relays,
                    21,
                    7103,
                    "\"include\":[],\"exclude\":[],\"selects\":[{\"include\":[\"shop.orders\"],"
                            + "\"exclude\":[],\"where\":false,\"renames\":false}]");
            register(
                    relays,
                    21,
                    7104,
                    "\"include\":[],\"exclude\":[],\"partition\":0,\"partitions\":2,"
                            + SELECTS_EVERYTHING);

            try (GroupConsumer member = member("all-tables", 21, Map.of())) {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .untilAsserted(
                                () -> {
                                    GroupStatus status = member.status();
                                    assertThat(status.partitions()).hasSize(2);
                                    assertThat(status.relays())
                                            .as(
                                                    "neither the relay of one table nor the one of"
                                                            + " one table by its policies")
                                            .containsExactly(
                                                    "http://127.0.0.1:7101",
                                                    "http://127.0.0.1:7104");
                                });
            }
            try (GroupConsumer member =
                    member("orders", 21, Map.of("subscription.tables", List.of("shop.orders")))) {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .untilAsserted(
                                () ->
                                        assertThat(member.status().relays())
                                                .containsExactly(
                                                        "http://127.0.0.1:7101",
                                                        "http://127.0.0.1:7102",
                                                        "http://127.0.0.1:7103",
                                                        "http://127.0.0.1:7104"));
            }
        }
    }
}
