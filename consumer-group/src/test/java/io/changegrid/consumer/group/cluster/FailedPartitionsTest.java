package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.config.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FailedPartitionsTest {

    private long nowNanos;
    private final List<String> resets = new ArrayList<>();
    private final FailedPartitions failed =
            new FailedPartitions(
                    new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), () -> nowNanos);

    private void at(double seconds, Map<String, List<Integer>> inError) {
        nowNanos = (long) (seconds * TimeUnit.SECONDS.toNanos(1));
        failed.resetDue(
                inError,
                (instance, partition) -> resets.add(seconds + " " + instance + "/" + partition));
    }

    @Test
    void shouldResetEverMoreSlowlyWhenAPartitionStaysFailed() {
        Map<String, List<Integer>> stuck = Map.of("m0", List.of(3));
        for (double second = 0; second <= 20; second += 0.5) {
            at(second, stuck);
        }

        assertThat(resets).containsExactly("1.0 m0/3", "3.0 m0/3", "7.0 m0/3", "15.0 m0/3");
        assertThat(failed.resets("m0", 3)).isEqualTo(4);
    }

    @Test
    void shouldStartTheBackoffAfreshWhenAPartitionWasHealthyForTheLongestWait() {
        Map<String, List<Integer>> stuck = Map.of("m0", List.of(3));
        at(0, stuck);
        at(1, stuck);
        at(2, Map.of());
        at(10.5, Map.of());

        at(11, stuck);
        at(12, stuck);

        assertThat(resets).containsExactly("1.0 m0/3", "12.0 m0/3");
    }

    @Test
    void shouldKeepABackoffPerPartitionAndMemberWhenSeveralFail() {
        at(0, Map.of("m0", List.of(1), "m1", List.of(1)));
        at(0.5, Map.of("m0", List.of(1), "m1", List.of(1, 2)));
        at(1, Map.of("m0", List.of(1), "m1", List.of(1, 2)));
        at(1.5, Map.of("m0", List.of(1), "m1", List.of(1, 2)));

        assertThat(resets).containsExactlyInAnyOrder("1.0 m0/1", "1.0 m1/1", "1.5 m1/2");
    }
}
