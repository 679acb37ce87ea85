package io.changegrid.consumer.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayRegistrationTest {

    private static RelayRegistration relay(List<String> include, List<String> exclude) {
        return new RelayRegistration("r", 1, "http://r:7070", include, exclude, -1, 0);
    }

    @Test
    void shouldCoverEverySubscriptionWhenTheRelayCapturesEverything() {
        RelayRegistration all = relay(List.of(), List.of());

        assertThat(all.covers(List.of())).isTrue();
        assertThat(all.covers(List.of("shop.orders", "crm.*"))).isTrue();
    }

    @Test
    void shouldCoverOnlyTablesWithinItsIncludesWhenTheRelayCapturesSome() {
        RelayRegistration shop = relay(List.of("shop.*"), List.of());

        assertThat(shop.covers(List.of("shop.orders"))).isTrue();
        assertThat(shop.covers(List.of("shop.*"))).isTrue();
        assertThat(shop.covers(List.of("shop.orders", "crm.users"))).isFalse();
        assertThat(shop.covers(List.of())).as("all tables").isFalse();
    }

    @Test
    void shouldNotCoverATableAnExclusionCouldTouchWhenTheRelayExcludesSome() {
        RelayRegistration shop = relay(List.of("shop.*"), List.of("shop.audit"));

        assertThat(shop.covers(List.of("shop.orders"))).isTrue();
        assertThat(shop.covers(List.of("shop.audit"))).isFalse();
        assertThat(shop.covers(List.of("shop.*"))).isFalse();
    }

    @Test
    void shouldServeOnlyItsPartitionOfAsManyWhenTheRelayPublishesOne() {
        RelayRegistration twoOfFour =
                new RelayRegistration("r", 1, "http://r:7070", List.of(), List.of(), 2, 4);

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
                                + "\"future\":{\"x\":1}}")
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
                                4));
    }

    @Test
    void shouldRefuseAPartitionWithoutItsNumberWhenDecoding() {
        byte[] data =
                "{\"sourceId\":7,\"endpoint\":\"http://r:7070\",\"partition\":1}"
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
                .hasMessageContaining("lacks sourceId or endpoint");
    }
}
