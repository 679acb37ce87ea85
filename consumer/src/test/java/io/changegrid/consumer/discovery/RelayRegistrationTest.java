package io.changegrid.consumer.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayRegistrationTest {

    private static RelayRegistration relay(List<String> include, List<String> exclude) {
        return new RelayRegistration("r", 1, "http://r:7070", include, exclude, -1);
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
    void shouldServeOnlyItsPartitionWhenTheRelayPublishesOne() {
        RelayRegistration one =
                new RelayRegistration("r", 1, "http://r:7070", List.of(), List.of(), 2);

        assertThat(one.serves(2)).isTrue();
        assertThat(one.serves(3)).isFalse();
        assertThat(relay(List.of(), List.of()).serves(3)).isTrue();
    }

    @Test
    void shouldReadWhatARelayWritesWhenDecoding() throws IOException {
        byte[] data =
                ("{\"sourceId\":7,\"endpoint\":\"http://127.0.0.1:7070\",\"include\":[\"shop.*\"],"
                                + "\"exclude\":[\"shop.audit\"],\"partition\":-1,\"future\":{\"x\":1}}")
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
                                -1));
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
