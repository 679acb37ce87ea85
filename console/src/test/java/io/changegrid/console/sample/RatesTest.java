package io.changegrid.console.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The arithmetic behind the relay charts: reading Prometheus text and turning counters into rates.
 */
class RatesTest {

    private static final String METRICS =
            """
            # HELP changegrid_relay_published_events_total Events published
            # TYPE changegrid_relay_published_events_total counter
            changegrid_relay_published_events_total{source="1"} 1200.0
            changegrid_relay_published_events_total{source="2"} 300.0
            changegrid_relay_published_events_totally_different 7.0
            changegrid_relay_published_bytes_total 4.5E7
            """;

    @Test
    void shouldSumEveryLabelSetOfAMetricWhenReadingPrometheusText() {
        assertThat(PrometheusText.sum(METRICS, RelayProbe.EVENTS))
                .isEqualTo(OptionalDouble.of(1500));
        assertThat(PrometheusText.sum(METRICS, RelayProbe.BYTES))
                .isEqualTo(OptionalDouble.of(4.5e7));
        assertThat(PrometheusText.sum(METRICS, "changegrid_missing")).isEmpty();
    }

    @Test
    void shouldGiveThePerSecondDifferenceWhenACounterGrows() {
        CounterRate rate = new CounterRate();

        assertThat(rate.next(10_000, 100)).isNaN();
        assertThat(rate.next(12_000, 300)).isEqualTo(100.0);
        assertThat(rate.next(14_000, 300)).isEqualTo(0.0);
    }

    @Test
    void shouldStartOverWhenTheCounterWentDown() {
        CounterRate rate = new CounterRate();
        rate.next(10_000, 500);

        assertThat(rate.next(12_000, 20)).isNaN();
        assertThat(rate.next(13_000, 70)).isEqualTo(50.0);
    }

    @Test
    void shouldKeepOnlyTheHistoryWindowWhenPointsAreAdded() {
        Series series = new Series(5_000);
        for (long at = 0; at <= 10_000; at += 1_000) {
            series.add(at, at / 1000.0);
        }

        assertThat(series.points()).hasSize(6);
        assertThat(series.points().get(0)[0]).isEqualTo(5_000.0);
    }
}
