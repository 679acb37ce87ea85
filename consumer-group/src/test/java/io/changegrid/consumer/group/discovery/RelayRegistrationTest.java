package io.changegrid.consumer.group.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.policy.partition.Partitioner;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.RelaySelection;
import io.changegrid.protocol.WantedTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RelayRegistrationTest {

    private static RelayRegistration relay(List<String> include, List<String> exclude) {
        return new RelayRegistration(
                1, "http://r:7070", include, exclude, -1, 0, List.of(RelaySelection.EVERYTHING));
    }

    private static RelayRegistration withPolicies(RelaySelection... policies) {
        return new RelayRegistration(
                1, "http://r:7070", List.of(), List.of(), -1, 0, List.of(policies));
    }

    private static RelaySelection policy(String include, boolean where, boolean renames) {
        return new RelaySelection(List.of(include), List.of(), where, renames, null);
    }

    /**
     * A relay publishing partition {@code partition} of {@code partitions}, with a policy for each
     * pair of include pattern and partitioner (canonical form) given.
     */
    private static RelayRegistration split(
            int partition, int partitions, String... includeAndPartitioner) {
        List<RelaySelection> selects = new ArrayList<>();
        for (int i = 0; i < includeAndPartitioner.length; i += 2) {
            selects.add(
                    new RelaySelection(
                            List.of(includeAndPartitioner[i]),
                            List.of(),
                            false,
                            false,
                            includeAndPartitioner[i + 1]));
        }
        return new RelayRegistration(
                1, "http://r:7070", List.of(), List.of(), partition, partitions, selects);
    }

    /** Whether the relay publishes every row of the tables for a consumer of one partition. */
    private static boolean covers(RelayRegistration relay, List<String> patterns) {
        return relay.isReplicaFor(patterns.stream().map(WantedTables::whole).toList(), 0, 1);
    }

    private static List<WantedTables> byKeyHash(int partitions, String... patterns) {
        return Stream.of(patterns)
                .map(
                        pattern ->
                                new WantedTables(
                                        pattern,
                                        new Partitioner.ByKeyHash(partitions).canonicalForm()))
                .toList();
    }

    private static final List<String> EVERY_TABLE = List.of("*.*");
    private static final String BY_KEY_HASH_4 = new Partitioner.ByKeyHash(4).canonicalForm();
    private static final String BY_TABLE_4 = new Partitioner.ByTable(4).canonicalForm();

    @Test
    void shouldCoverEverySubscriptionWhenTheRelayCapturesEverything() {
        RelayRegistration all = relay(List.of(), List.of());

        assertThat(covers(all, EVERY_TABLE)).isTrue();
        assertThat(covers(all, List.of("shop.orders", "crm.*"))).isTrue();
    }

    @Test
    void shouldCoverOnlyTablesWithinItsIncludesWhenTheRelayCapturesSome() {
        RelayRegistration shop = relay(List.of("shop.*"), List.of());

        assertThat(covers(shop, List.of("shop.orders"))).isTrue();
        assertThat(covers(shop, List.of("shop.*"))).isTrue();
        assertThat(covers(shop, List.of("shop.orders", "crm.users"))).isFalse();
        assertThat(covers(shop, EVERY_TABLE)).as("all tables").isFalse();
    }

    @Test
    void shouldNotCoverATableAnExclusionCouldTouchWhenTheRelayExcludesSome() {
        RelayRegistration shop = relay(List.of("shop.*"), List.of("shop.audit", "shop.a*x"));

        assertThat(covers(shop, List.of("shop.orders"))).isTrue();
        assertThat(covers(shop, List.of("shop.audit"))).isFalse();
        assertThat(covers(shop, List.of("shop.*"))).isFalse();
        assertThat(covers(shop, List.of("shop.*x"))).as("shop.abx is in both").isFalse();
    }

    @Test
    void shouldTakeNeitherHalfForAllTablesWhenTwoRelaysSplitTheSourceByTable() {
        RelayRegistration orders = relay(List.of("shop.orders"), List.of());
        RelayRegistration rest = relay(List.of("shop.*"), List.of("shop.orders"));

        assertThat(covers(orders, EVERY_TABLE)).isFalse();
        assertThat(covers(rest, EVERY_TABLE)).isFalse();
        assertThat(covers(orders, List.of("shop.orders"))).isTrue();
        assertThat(covers(rest, List.of("shop.items"))).isTrue();
        assertThat(covers(rest, List.of("shop.orders"))).isFalse();
    }

    @Test
    void shouldCoverOnlyWhatItsPoliciesPublishWholeWhenTheRelayHasPolicies() {
        RelayRegistration ordersOnly = withPolicies(policy("shop.orders", false, false));
        assertThat(covers(ordersOnly, EVERY_TABLE)).isFalse();
        assertThat(covers(ordersOnly, List.of("shop.orders"))).isTrue();
        assertThat(covers(ordersOnly, List.of("shop.items"))).isFalse();

        RelayRegistration someRows = withPolicies(policy("*.*", true, false));
        assertThat(covers(someRows, EVERY_TABLE)).as("a where: publishes some rows").isFalse();

        RelayRegistration renamed = withPolicies(policy("shop.*", false, true));
        assertThat(covers(renamed, List.of("shop.orders"))).isFalse();

        RelayRegistration everything = withPolicies(policy("*.*", false, false));
        assertThat(covers(everything, EVERY_TABLE)).isTrue();
    }

    @Test
    void shouldJudgeATableByTheFirstPolicySelectingItWhenPoliciesOverlap() {
        RelayRegistration relay =
                withPolicies(policy("shop.orders", true, false), policy("shop.*", false, false));

        assertThat(covers(relay, List.of("shop.items"))).isTrue();
        assertThat(covers(relay, List.of("shop.orders")))
                .as("governed by the first policy, which filters rows")
                .isFalse();
        assertThat(covers(relay, List.of("shop.*"))).isFalse();
        assertThat(covers(withPolicies(), List.of("shop.items")))
                .as("policies: [] publishes nothing")
                .isFalse();
    }

    @Test
    void shouldServeOnlyItsPartitionOfAsManyWhenTheRelayPublishesOne() {
        RelayRegistration twoOfFour = split(2, 4, "*.*", BY_KEY_HASH_4);

        assertThat(twoOfFour.isReplicaFor(byKeyHash(4, "*.*"), 2, 4)).isTrue();
        assertThat(twoOfFour.isReplicaFor(byKeyHash(4, "*.*"), 3, 4)).isFalse();
        assertThat(twoOfFour.isReplicaFor(byKeyHash(8, "*.*"), 2, 8))
                .as("a quarter is not an eighth")
                .isFalse();
        assertThat(twoOfFour.isReplicaFor(byKeyHash(3, "*.*"), 2, 3)).isFalse();
        assertThat(covers(twoOfFour, EVERY_TABLE)).as("a quarter is not the whole").isFalse();
        assertThat(relay(List.of(), List.of()).isReplicaFor(byKeyHash(4, "*.*"), 3, 4)).isTrue();
    }

    @Test
    void shouldServeAKeyHashPartitionOnlyWhenTheRelaySplitsByKeyHashIntoAsMany() {
        RelayRegistration splitByKeyHash = split(1, 4, "shop.*", BY_KEY_HASH_4);
        RelayRegistration splitByTable = split(1, 4, "shop.*", BY_TABLE_4);

        assertThat(splitByKeyHash.isReplicaFor(byKeyHash(4, "shop.orders"), 1, 4)).isTrue();
        assertThat(splitByKeyHash.isReplicaFor(byKeyHash(4, "shop.orders"), 2, 4)).isFalse();
        assertThat(splitByTable.isReplicaFor(byKeyHash(4, "shop.orders"), 1, 4))
                .as("partition 1 by table holds whole tables, not the keys hashing to 1")
                .isFalse();
        assertThat(
                        splitByTable.isReplicaFor(
                                List.of(new WantedTables("shop.orders", BY_TABLE_4)), 1, 4))
                .as("a group split by table as the relay is")
                .isTrue();
    }

    @Test
    void shouldCompareTheGoverningPoliciesPartitionerWhenTheRelaySplitsPoliciesDifferently() {
        String byTenant = new Partitioner.ByColumn("tenant", 4, Map.of("3", 0)).canonicalForm();
        RelayRegistration relay = split(1, 4, "shop.orders", byTenant, "*.*", BY_KEY_HASH_4);

        assertThat(relay.isReplicaFor(byKeyHash(4, "crm.*"), 1, 4)).isTrue();
        assertThat(relay.isReplicaFor(byKeyHash(4, "shop.orders"), 1, 4))
                .as("shop.orders is split by tenant on the relay")
                .isFalse();
        assertThat(relay.isReplicaFor(List.of(new WantedTables("shop.orders", byTenant)), 1, 4))
                .isTrue();
        assertThat(
                        relay.isReplicaFor(
                                List.of(
                                        new WantedTables(
                                                "shop.orders",
                                                new Partitioner.ByColumn("tenant", 4, Map.of())
                                                        .canonicalForm())),
                                1,
                                4))
                .as("the same column with other listed values splits otherwise")
                .isFalse();
    }

    @Test
    void shouldNotServeAnyPartitionWhenASplitRelayDoesNotSayHowItSplits() {
        RelayRegistration unsaid = split(1, 4, "*.*", null);

        assertThat(unsaid.isReplicaFor(byKeyHash(4, "*.*"), 1, 4)).isFalse();
        assertThat(split(0, 1, "*.*", null).isReplicaFor(byKeyHash(4, "*.*"), 3, 4))
                .as("partition 0 of 1 is everything")
                .isTrue();
    }

    @Test
    void shouldReadWhatARelayWritesWhenDecoding() throws IOException {
        byte[] data =
                ("{\"sourceId\":7,\"endpoint\":\"http://127.0.0.1:7070\",\"include\":[\"shop.*\"],"
                                + "\"exclude\":[\"shop.audit\"],\"partition\":1,\"partitions\":4,"
                                + "\"selects\":[{\"include\":[\"shop.*\"],\"exclude\":[\"shop.tmp\"],"
                                + "\"where\":true,\"renames\":false,"
                                + "\"partitioner\":\"byKeyHash(partitions=4)\"}],"
                                + "\"future\":{\"x\":1}}")
                        .getBytes(StandardCharsets.UTF_8);

        RelayRegistration read =
                RelayRegistration.decode("/changegrid/relays/7/127.0.0.1_7070", data);

        assertThat(read)
                .isEqualTo(
                        new RelayRegistration(
                                7,
                                "http://127.0.0.1:7070",
                                List.of("shop.*"),
                                List.of("shop.audit"),
                                1,
                                4,
                                List.of(
                                        new RelaySelection(
                                                List.of("shop.*"),
                                                List.of("shop.tmp"),
                                                true,
                                                false,
                                                "byKeyHash(partitions=4)"))));
    }

    @Test
    void shouldReadNoPartitionerWhenTheRelayRegistersNullOrNoneAndRefuseAnythingElse()
            throws IOException {
        String selects =
                "\"selects\":[{\"include\":[\"*.*\"],\"partitioner\":null},{\"include\":[\"x.*\"]}]";
        byte[] data =
                ("{\"sourceId\":7,\"endpoint\":\"http://r:7070\"," + selects + "}")
                        .getBytes(StandardCharsets.UTF_8);

        assertThat(RelayRegistration.decode("/changegrid/relays/7/r_7070", data).selects())
                .extracting(RelaySelection::partitioner)
                .containsExactly(null, null);

        byte[] numeric =
                ("{\"sourceId\":7,\"endpoint\":\"http://r:7070\","
                                + "\"selects\":[{\"include\":[\"*.*\"],\"partitioner\":4}]}")
                        .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RelayRegistration.decode("/changegrid/relays/7/r_7070", numeric))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("path=/changegrid/relays/7/r_7070")
                .hasRootCauseMessage("expected a string or null: field=partitioner");
    }

    @Test
    void shouldRefuseAPartitionWithoutItsNumberWhenDecoding() {
        byte[] data =
                "{\"sourceId\":7,\"endpoint\":\"http://r:7070\",\"partition\":1,\"selects\":[]}"
                        .getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> RelayRegistration.decode("/changegrid/relays/7/r_7070", data))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("without the number of partitions")
                .hasMessageContaining("path=/changegrid/relays/7/r_7070");
    }

    @Test
    void shouldNameTheNodeWhenARegistrationIsUnreadable() {
        byte[] data = "{\"sourceId\":7}".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> RelayRegistration.decode("/changegrid/relays/7/x", data))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("path=/changegrid/relays/7/x")
                .hasMessageContaining("lacks sourceId, endpoint or selects");
    }
}
