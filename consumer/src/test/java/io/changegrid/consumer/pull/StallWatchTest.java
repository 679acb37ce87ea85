package io.changegrid.consumer.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StallWatchTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final long TIMEOUT = 30 * SECOND;

    /** An arbitrary origin of the monotonic clock: nanoTime may be negative. */
    private static final long T0 = -5_000 * SECOND;

    private final StallWatch watch = new StallWatch(TIMEOUT);

    @Test
    void shouldJudgeARelayStalledWhenItsSourceTimeStaysTheSameForTheTimeout() {
        assertThat(watch.observe(0, 1_000, T0)).isEqualTo(StallWatch.NOT_STALLED);
        assertThat(watch.observe(0, 1_000, T0 + TIMEOUT - 1)).isEqualTo(StallWatch.NOT_STALLED);

        assertThat(watch.observe(0, 1_000, T0 + TIMEOUT)).isEqualTo(TIMEOUT);
        assertThat(watch.observe(0, 1_000, T0 + TIMEOUT + 7 * SECOND))
                .as("how long it has not changed")
                .isEqualTo(TIMEOUT + 7 * SECOND);
    }

    @Test
    void shouldStartTheWindowAgainWhenTheSourceTimeChanges() {
        watch.observe(0, 1_000, T0);
        assertThat(watch.observe(0, 1_200, T0 + 29 * SECOND)).isEqualTo(StallWatch.NOT_STALLED);

        assertThat(watch.observe(0, 1_200, T0 + 58 * SECOND)).isEqualTo(StallWatch.NOT_STALLED);
        assertThat(watch.observe(0, 1_200, T0 + 59 * SECOND)).isEqualTo(TIMEOUT);
    }

    @Test
    void shouldCountAStepBackAsProgressWhenTheRelayClockAndCommitTimesInterleave() {
        // A heartbeat at the relay's 10:00:00.500, then a transaction committed in second 10:00:00.
        watch.observe(0, 36_000_500, T0);
        assertThat(watch.observe(0, 36_000_000, T0 + 29 * SECOND))
                .isEqualTo(StallWatch.NOT_STALLED);

        assertThat(watch.observe(0, 36_000_000, T0 + 40 * SECOND))
                .as("judged from the step back")
                .isEqualTo(StallWatch.NOT_STALLED);
    }

    @Test
    void shouldNeverCompareSourceTimesOfTwoRelaysWhenTheConsumerMovesBetweenThem() {
        watch.observe(0, 1_000, T0);
        // Relay 1 happens to report the very same value: still a fresh window of its own.
        assertThat(watch.observe(1, 1_000, T0 + 31 * SECOND)).isEqualTo(StallWatch.NOT_STALLED);
        assertThat(watch.observe(1, 1_000, T0 + 60 * SECOND)).isEqualTo(StallWatch.NOT_STALLED);
        assertThat(watch.observe(1, 1_000, T0 + 61 * SECOND)).isEqualTo(TIMEOUT);
    }

    @Test
    void shouldGiveARelayAFreshWindowWhenThePullerComesBackToIt() {
        watch.observe(0, 1_000, T0);
        watch.reset(); // the puller moved away (relay 1 failed without answering) and back

        assertThat(watch.observe(0, 1_000, T0 + 100 * SECOND)).isEqualTo(StallWatch.NOT_STALLED);
        assertThat(watch.observe(0, 1_000, T0 + 130 * SECOND)).isEqualTo(TIMEOUT);
    }

    @Test
    void shouldNeverJudgeARelayStalledWhenItSendsNoSourceTime() {
        watch.observe(0, StreamHeaders.NO_SOURCE_TIME, T0);

        assertThat(watch.observe(0, StreamHeaders.NO_SOURCE_TIME, T0 + 600 * SECOND))
                .isEqualTo(StallWatch.NOT_STALLED);
    }

    @Test
    void shouldJudgeARelayThatNeverReceivedAnythingWhenItsSourceTimeStaysUnknown() {
        watch.observe(0, -1, T0);

        assertThat(watch.observe(0, -1, T0 + TIMEOUT)).isEqualTo(TIMEOUT);
    }

    @Test
    void shouldNeverJudgeWhenTheTimeoutIsZero() {
        StallWatch off = new StallWatch(0);
        off.observe(0, 1_000, T0);

        assertThat(off.observe(0, 1_000, T0 + 3_600 * SECOND)).isEqualTo(StallWatch.NOT_STALLED);
    }

    @Test
    void shouldRefuseANegativeTimeoutWhenBuilt() {
        assertThatThrownBy(() -> new StallWatch(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative stall timeout");
    }
}
