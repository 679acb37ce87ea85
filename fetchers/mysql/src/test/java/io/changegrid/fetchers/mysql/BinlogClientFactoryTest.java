package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BinlogClientFactoryTest {

    @Test
    void shouldWaitTenHeartbeatIntervalsWhenTheIntervalIsLong() {
        assertThat(BinlogClientFactory.readTimeout(Duration.ofSeconds(3)))
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void shouldWaitFiveSecondsAtLeastWhenHeartbeatsAreFrequent() {
        assertThat(BinlogClientFactory.readTimeout(Duration.ofMillis(200)))
                .isEqualTo(Duration.ofSeconds(5));
    }
}
