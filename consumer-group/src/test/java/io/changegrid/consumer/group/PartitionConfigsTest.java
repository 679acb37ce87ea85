package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigException;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.protocol.WantedTables;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionConfigsTest {

    private static final Map<String, Object> MEMBER =
            Map.of(
                    "cluster.zookeeper", "zk1:2181,zk2:2181/grid",
                    "cluster.group", "orders",
                    "cluster.instance", "c1",
                    "cluster.sessionTimeout", "6s",
                    "subscription.tables", List.of("shop.orders"),
                    "subscription.partitions", 12);

    @Test
    void shouldNeedNoRelaysAndTakeTheGroupSettingsWhenAMemberDiscoversRelays() {
        PartitionConfigs configs = PartitionConfigs.of(MEMBER, List.of());

        GroupConfig group = configs.group();
        assertThat(group.zooKeeper()).isEqualTo("zk1:2181,zk2:2181/grid");
        assertThat(group.group()).isEqualTo("orders");
        assertThat(group.instance()).isEqualTo("c1");
        assertThat(group.partitions()).isEqualTo(12);
        assertThat(group.sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
        assertThat(configs.configuredRelays()).isEmpty();
    }

    @Test
    void shouldSetThePartitionAndTheRelaysFoundWhenMakingAPartitionsSettings() {
        PartitionConfigs configs = PartitionConfigs.of(MEMBER, List.of());

        ConsumerConfig partition =
                configs.forPartition(5, List.of("http://r2:7070", "http://r1:7070"));

        assertThat(partition.subscription().partition()).isEqualTo(5);
        assertThat(partition.subscription().partitions()).isEqualTo(12);
        assertThat(partition.subscription().tables()).containsExactly("shop.orders");
        assertThat(partition.relays())
                .containsExactly(URI.create("http://r2:7070/"), URI.create("http://r1:7070/"));
    }

    @Test
    void shouldAskRelaysForWhatTheSubscriptionSelectsWhenJudgingReplicas() {
        assertThat(PartitionConfigs.of(MEMBER, List.of()).wantedTables())
                .containsExactly(new WantedTables("shop.orders", "byKeyHash(partitions=12)"));

        Map<String, Object> everything = new java.util.HashMap<>(MEMBER);
        everything.remove("subscription.tables");
        assertThat(PartitionConfigs.of(everything, List.of()).wantedTables())
                .containsExactly(new WantedTables("*.*", "byKeyHash(partitions=12)"));

        List<?> policies =
                List.of(
                        Map.of("include", List.of("shop.orders"), "where", "total > 10"),
                        Map.of("include", List.of("crm.*")));
        everything.put("subscription.partitions", 1);
        assertThat(PartitionConfigs.of(everything, List.of()).wantedTables())
                .as("a group of one partition is not split")
                .containsExactly(WantedTables.whole("*.*"));
        assertThat(PartitionConfigs.of(everything, policies).wantedTables())
                .containsExactly(WantedTables.whole("shop.orders"), WantedTables.whole("crm.*"));
    }

    @Test
    void shouldSplitEachPolicysTablesByItsPartitionerWhenJudgingReplicasForAPolicySubscription() {
        Map<String, Object> settings = new java.util.HashMap<>(MEMBER);
        settings.remove("subscription.tables");
        settings.put("subscription.partitions", 2);
        List<?> policies =
                List.of(
                        Map.of(
                                "include",
                                List.of("shop.orders"),
                                "partition",
                                Map.of("byColumn", Map.of("column", "tenant", "partitions", 2))),
                        Map.of(
                                "include",
                                List.of("crm.*", "shop.*"),
                                "partition",
                                Map.of("byTable", Map.of("partitions", 2))));

        assertThat(PartitionConfigs.of(settings, policies).wantedTables())
                .containsExactly(
                        new WantedTables(
                                "shop.orders",
                                "byColumn(column=\"tenant\",partitions=2,values={})"),
                        new WantedTables("crm.*", "byTable(partitions=2)"),
                        new WantedTables("shop.*", "byTable(partitions=2)"));
    }

    @Test
    void shouldReportEveryGroupProblemWhenTheGroupSettingsAreIncomplete() {
        assertThatThrownBy(
                        () ->
                                PartitionConfigs.of(
                                        Map.of(
                                                "cluster.zookeeper", "zk:2181",
                                                "subscription.partition", 3,
                                                "subscription.partitions", 4),
                                        List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("missing required key: path=cluster.group")
                .hasMessageContaining(
                        "bad value: path=subscription.partition, value=3: a group assigns");
    }

    @Test
    void shouldStillRequireRelaysWhenTheConsumerIsNoGroupMember() {
        assertThatThrownBy(() -> ConsumerConfig.of(Map.of("subscription.tables", "shop.*")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("missing required key: path=relays");
    }

    @Test
    void shouldWriteAFilePerPartitionWhenTheJsonlCallbackRunsInAGroup() {
        assertThat(PartitionCallbacks.fileFor(Path.of("/data/events.jsonl"), 3))
                .isEqualTo(Path.of("/data/events.p3.jsonl"));
        assertThat(PartitionCallbacks.fileFor(Path.of("/data/p{partition}/out.jsonl"), 3))
                .as("only the file name is templated")
                .isEqualTo(Path.of("/data/p{partition}/out.p3.jsonl"));
        assertThat(PartitionCallbacks.fileFor(Path.of("/data/orders-{partition}.jsonl"), 7))
                .isEqualTo(Path.of("/data/orders-7.jsonl"));
        assertThat(PartitionCallbacks.fileFor(Path.of("events"), 0))
                .isEqualTo(Path.of("events.p0"));
    }
}
