package io.changegrid.bench.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.bench.harness.Partitioning;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsumerSpecTest {

    @Test
    void shouldGiveEachRelayItsOwnConsumerWhenCountsAreEqual() {
        List<ConsumerSpec> specs = assign(List.of("http://a", "http://b", "http://c"), 3);

        assertThat(specs)
                .extracting(ConsumerSpec::relayUrl)
                .containsExactly("http://a", "http://b", "http://c");
        assertThat(specs).extracting(ConsumerSpec::partitions).containsOnly(1);
    }

    @Test
    void shouldSplitARelaysStreamWhenItHasSeveralConsumers() {
        List<ConsumerSpec> specs = assign(List.of("http://a", "http://b"), 3);

        assertThat(specs)
                .extracting(ConsumerSpec::relayUrl)
                .containsExactly("http://a", "http://b", "http://a");
        assertThat(specs).extracting(ConsumerSpec::partition).containsExactly(0, 0, 1);
        assertThat(specs).extracting(ConsumerSpec::partitions).containsExactly(2, 1, 2);
    }

    @Test
    void shouldPassEverySettingWhenBuildingTheCommandLine() {
        ConsumerSpec spec = assign(List.of("http://a"), 2).get(1);

        assertThat(spec.arguments())
                .containsSequence("--relay", "http://a")
                .containsSequence("--partition", "1")
                .containsSequence("--partitions", "2")
                .containsSequence("--end-scn", "99");
    }

    private static List<ConsumerSpec> assign(List<String> relays, int consumers) {
        return ConsumerSpec.assign(
                relays, consumers, Partitioning.KEY, "bench", "binary", "none", 99, 1 << 20);
    }
}
