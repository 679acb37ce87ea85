package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The serving meters count per principal, and no more principals than their bound. */
class ServingMetersTest {

    @Test
    void shouldCountPerPrincipalWhenBoundBeforeOrAfterTheFirstResponse() {
        ServingMeters meters = new ServingMeters();
        meters.served("orders-app", 3, 300);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        meters.bindTo(registry);
        meters.served("orders-app", 2, 200);
        meters.served("anonymous", 1, 50);

        assertThat(count(registry, "changegrid.relay.served.events", "orders-app")).isEqualTo(5);
        assertThat(count(registry, "changegrid.relay.served.bytes", "orders-app")).isEqualTo(500);
        assertThat(count(registry, "changegrid.relay.served.responses", "orders-app")).isEqualTo(2);
        assertThat(count(registry, "changegrid.relay.served.events", "anonymous")).isEqualTo(1);
    }

    @Test
    void shouldCountTheRestAsOtherWhenMorePrincipalsThanTheBoundAreServed() {
        ServingMeters meters = new ServingMeters();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        meters.bindTo(registry);
        int principals = ServingMeters.MAX_PRINCIPALS + 50;
        for (int i = 0; i < principals; i++) {
            meters.served("cert-" + i, 1, 10);
        }

        assertThat(registry.find("changegrid.relay.served.events").functionCounters())
                .hasSize(ServingMeters.MAX_PRINCIPALS + 1);
        assertThat(count(registry, "changegrid.relay.served.events", ServingMeters.OTHER))
                .isEqualTo(50);
    }

    private static double count(SimpleMeterRegistry registry, String name, String principal) {
        FunctionCounter counter = registry.find(name).tag("principal", principal).functionCounter();
        assertThat(counter).as("%s{principal=%s}", name, principal).isNotNull();
        return counter.count();
    }
}
