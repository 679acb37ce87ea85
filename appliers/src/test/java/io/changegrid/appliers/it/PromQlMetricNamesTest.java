package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlMetricNamesTest {

    @Test
    void shouldNameOnlyTheMetricsWhenAnExpressionHasFunctionsGroupingAndMatchers() {
        assertThat(
                        PromQlMetricNames.of(
                                "sum by (group, partition) (rate(a_total{area=\"heap\","
                                        + " x=~\"b_total\"}[1m] offset 5m)) / on (group) b_bytes"
                                        + " > bool 0.5e3 and c_scn"))
                .containsExactly("a_total", "b_bytes", "c_scn");
    }

    @Test
    void shouldReadSampleNamesWhenGivenAnExposition() {
        assertThat(
                        PromQlMetricNames.exported(
                                "# HELP up x\n# TYPE up gauge\nup 1\nlag_ms{partition=\"0\"} NaN\n"))
                .containsExactly("lag_ms", "up");
    }
}
