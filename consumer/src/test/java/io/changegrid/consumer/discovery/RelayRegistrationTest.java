package io.changegrid.consumer.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayRegistrationTest {

    private static RelayRegistration relay(List<String> include, List<String> exclude) {
        return new RelayRegistration(
                "r",
                1,
                "http://r:7070",
                include,
                exclude,
                -1,
                0,
                List.of(RelaySelection.EVERYTHING));
    }

    private static RelayRegistration withPolicies(RelaySelection... policies) {
        return new RelayRegistration(
                "r", 1, "http://r:7070", List.of(), List.of(), -1, 0, List.of(policies));
    }

    private static RelaySelection policy(String include, boolean where, boolean renames) {
        return new RelaySelection(List.of(include), List.of(), where, renames);
    }

    private static final List<String> EVERY_TABLE = List.of("*.*");

    @Test
    void shouldCoverEverySubscriptionWhenTheRelayCapturesEverything() {
        RelayRegistration all = relay(List.of(), List.of());

        assertThat(all.covers(EVERY_TABLE)).isTrue();
        assertThat(all.covers(List.of("shop.orders", "crm.*"))).isTrue();
    }

    @Test
    void shouldCoverOnlyTablesWithinItsIncludesWhenTheRelayCapturesSome() {
        RelayRegistration shop = relay(List.of("shop.*"), List.of());

        assertThat(shop.covers(List.of("shop.orders"))).isTrue();
        assertThat(shop.covers(List.of("shop.*"))).isTrue();
        assertThat(shop.covers(List.of("shop.orders", "crm.users"))).isFalse();
        assertThat(shop.covers(EVERY_TABLE)).as("all tables").isFalse();
    }

    @Test
    void shouldNotCoverATableAnExclusionCouldTouchWhenTheRelayExcludesSome() {
        RelayRegistration shop = relay(List.of("shop.*"), List.of("shop.audit", "shop.a*x"));

        assertThat(shop.covers(List.of("shop.orders"))).isTrue();
        assertThat(shop.covers(List.of("shop.audit"))).isFalse();
        assertThat(shop.covers(List.of("shop.*"))).isFalse();
        assertThat(shop.covers(List.of("shop.*x"))).as("shop.abx is in both").isFalse();
    }

    @Test
    void shouldTakeNeitherHalfForAllTablesWhenTwoRelaysSplitTheSourceByTable() {
        RelayRegistration orders = relay(List.of("shop.orders"), List.of());
        RelayRegistration rest = relay(List.of("shop.*"), List.of("shop.orders"));

        assertThat(orders.covers(EVERY_TABLE)).isFalse();
        assertThat(rest.covers(EVERY_TABLE)).isFalse();
        assertThat(orders.covers(List.of("shop.orders"))).isTrue();
        assertThat(rest.covers(List.of("shop.items"))).isTrue();
        assertThat(rest.covers(List.of("shop.orders"))).isFalse();
    }

    @Test
    void shouldCoverOnlyWhatItsPoliciesPublishWholeWhenTheRelayHasPolicies() {
        RelayRegistration ordersOnly = withPolicies(policy("shop.orders", false, false));
        assertThat(ordersOnly.covers(EVERY_TABLE)).isFalse();
        assertThat(ordersOnly.covers(List.of("shop.orders"))).isTrue();
        assertThat(ordersOnly.covers(List.of("shop.items"))).isFalse();

        RelayRegistration someRows = withPolicies(policy("*.*", true, false));
        assertThat(someRows.covers(EVERY_TABLE)).as("a where: publishes some rows").isFalse();

        RelayRegistration renamed = withPolicies(policy("shop.*", false, true));
        assertThat(renamed.covers(List.of("shop.orders"))).isFalse();

        RelayRegistration everything = withPolicies(policy("*.*", false, false));
        assertThat(everything.covers(EVERY_TABLE)).isTrue();
    }

    @Test
    void shouldJudgeATableByTheFirstPolicySelectingItWhenPoliciesOverlap() {
        RelayRegistration relay =
                withPolicies(policy("shop.orders", true, false), policy("shop.*", false, false));

        assertThat(relay.covers(List.of("shop.items"))).isTrue();
        assertThat(relay.covers(List.of("shop.orders")))
                .as("governed by the first policy, which filters rows")
                .isFalse();
        assertThat(relay.covers(List.of("shop.*"))).isFalse();
        assertThat(withPolicies().covers(List.of("shop.items")))
                .as("policies: [] publishes nothing")
                .isFalse();
    }

    @Test
    void shouldServeOnlyItsPartitionOfAsManyWhenTheRelayPublishesOne() {
        RelayRegistration twoOfFour =
                new RelayRegistration(
                        "r",
                        1,
                        "http://r:7070",
                        List.of(),
                        List.of(),
                        2,
                        4,
                        List.of(RelaySelection.EVERYTHING));

        assertThat(twoOfFour.serves(2, 4)).isTrue();
        assertThat(twoOfFour.serves(3, 4)).isFalse();
        assertThat(twoOfFour.serves(2, 8)).as("a quarter is not an eighth").isFalse();
        assertThat(twoOfFour.serves(2, 3)).isFalse();
        assertThat(relay(List.of(), List.of()).serves(3, 4)).isTrue();
    }

    @Test
    void shouldReadWhatARelayWritesWhenDecoding() throws IOException {
        byte[] data =
                ("{\"sourceId\":7,\"endpoint\":\"http://127.0.0.1:7070\",\"include\":[\"shop.*\"],"
                                + "\"exclude\":[\"shop.audit\"],\"partition\":1,\"partitions\":4,"
                                + "\"selects\":[{\"include\":[\"shop.*\"],\"exclude\":[\"shop.tmp\"],"
                                + "\"where\":true,\"renames\":false}],\"future\":{\"x\":1}}")
                        .getBytes(StandardCharsets.UTF_8);

        RelayRegistration read =
                RelayRegistration.decode("/changegrid/relays/7/127.0.0.1_7070", data);

        assertThat(read)
                .isEqualTo(
                        new RelayRegistration(
                                "127.0.0.1_7070",
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
                                                false))));
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
