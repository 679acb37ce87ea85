package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
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
 * subscribes to, and, of relays publishing one partition of the source, only those split as the
 * group is. The relays here are registrations only; the partitions' consumers find nobody
 * answering, which does not matter for the choice.
 */
class GroupConsumerRelaysIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final String SELECTS_EVERYTHING =
            "\"selects\":[{\"include\":[\"*.*\"],\"exclude\":[],\"where\":false,\"renames\":false}]";

    /** Every table, split by {@code partitioner} (a canonical form). */
    private static String selectsEverythingSplitBy(String partitioner) {
        return "\"selects\":[{\"include\":[\"*.*\"],\"exclude\":[],\"where\":false,"
                + "\"renames\":false,\"partitioner\":\""
                + partitioner.replace("\"", "\\\"")
                + "\"}]";
    }

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
        return member(group, source, subscription, List.of());
    }

    private static GroupConsumer member(
            String group, int source, Map<String, Object> subscription, List<?> policies)
            throws Exception {
        Map<String, Object> settings = new HashMap<>(subscription);
        settings.put("cluster.zookeeper", ZOOKEEPER.zooKeeper().connectString());
        settings.put("cluster.group", group);
        settings.put("cluster.instance", "m0");
        settings.put("cluster.sessionTimeout", "4s");
        settings.put("cluster.relaySource", source);
        settings.put("subscription.partitions", 2);
        return GroupConsumer.start(
                PartitionConfigs.of(settings, policies),
                assignment -> event -> CallbackResult.SUCCESS);
    }

    @Test
    void shouldTakeOnlyTheRelaysPublishingEveryRowWhenTheSubscriptionWantsAllTables()
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
                            + selectsEverythingSplitBy("byKeyHash(partitions=2)"));
            // Partition 0 of 2 as well, but of whole tables: other rows than the group's
            // partition 0, which is by key hash.
            register(
                    relays,
                    21,
                    7105,
                    "\"include\":[],\"exclude\":[],\"partition\":0,\"partitions\":2,"
                            + selectsEverythingSplitBy("byTable(partitions=2)"));
            // A relay too old to say how it splits.
            register(
                    relays,
                    21,
                    7106,
                    "\"include\":[],\"exclude\":[],\"partition\":1,\"partitions\":2,"
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
                                                    "neither the relay of one table, nor the one of"
                                                            + " one table by its policies, nor"
                                                            + " those split otherwise than by key"
                                                            + " hash")
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

    @Test
    void shouldTakeASplitRelayOnlyWhenItSplitsAsThePoliciesOfThePolicySubscriptionDo()
            throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        try (ZooKeeperSession relays = ZooKeeperSession.open(connect, SESSION)) {
            register(
                    relays,
                    22,
                    7201,
                    "\"include\":[],\"exclude\":[],\"partition\":0,\"partitions\":2,"
                            + selectsEverythingSplitBy(
                                    "byColumn(column=\"tenant\",partitions=2,values={})"));
            register(
                    relays,
                    22,
                    7202,
                    "\"include\":[],\"exclude\":[],\"partition\":1,\"partitions\":2,"
                            + selectsEverythingSplitBy("byKeyHash(partitions=2)"));
            register(relays, 22, 7203, "\"include\":[],\"exclude\":[]," + SELECTS_EVERYTHING);

            List<?> byTenant =
                    List.of(
                            Map.of(
                                    "include",
                                    List.of("shop.*"),
                                    "partition",
                                    Map.of(
                                            "byColumn",
                                            Map.of("column", "tenant", "partitions", 2))));
            try (GroupConsumer member = member("tenants", 22, Map.of(), byTenant)) {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .untilAsserted(
                                () ->
                                        assertThat(member.status().relays())
                                                .as("not the relay split by key hash")
                                                .containsExactly(
                                                        "http://127.0.0.1:7201",
                                                        "http://127.0.0.1:7203"));
            }
        }
    }
}
