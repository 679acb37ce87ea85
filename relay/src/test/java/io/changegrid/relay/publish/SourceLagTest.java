package io.changegrid.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The relay's lag on each clock its source allows, against a wall clock the test moves. */
class SourceLagTest {

    private static final long SECOND = 1_700_000_000_000L; // a whole second, in milliseconds

    private final AtomicLong wall = new AtomicLong(SECOND);
    private final SourceLag lag = new SourceLag(wall::get);

    @Test
    void shouldReadMicrosecondCommitsAgainstTheirReceiptWhenTheSourceStampsMicroseconds() {
        assertThat(lag.lagMillis()).isEqualTo(-1);
        assertThat(lag.clock()).isNull();
        wall.set(SECOND + 3);
        lag.received((SECOND + 1) * 1000 + 250, true);
        wall.set(SECOND + 900); // the next transaction is slow to come: still 2 ms behind
        assertThat(lag.lagMillis()).isEqualTo(2);
        assertThat(lag.clock()).isEqualTo(LagClock.COMMIT_MICROS);
    }

    @Test
    void shouldShowNoLagWhenACaughtUpRelayReceivesAWholeSecondStamp() {
        // MariaDB stamps 12:00:00 a commit made at 12:00:00.700; the relay gets it 1 ms later.
        wall.set(SECOND + 701);
        lag.received(SECOND * 1000, true);
        assertThat(lag.lagMillis()).isZero();
        assertThat(lag.clock()).isEqualTo(LagClock.RECEIVE_TIME);
        assertThat(lag.receivedMillis()).isEqualTo(SECOND + 701);
    }

    @Test
    void shouldShowTheBacklogsAgeWhenTheRelayReceivesOldWholeSecondStamps() {
        wall.set(SECOND + 60_500);
        lag.received(SECOND * 1000, true);
        assertThat(lag.lagMillis()).isEqualTo(59_501);
        // A heartbeat made now, once caught up, keeps the clock and shows no lag.
        lag.received((SECOND + 60_500) * 1000, false);
        assertThat(lag.lagMillis()).isZero();
        assertThat(lag.clock()).isEqualTo(LagClock.RECEIVE_TIME);
    }

    @Test
    void shouldReadTheCommitSecondAgainstNowWhenTheRelaysClockIsBehindTheSources() {
        wall.set(SECOND - 5_000);
        lag.received(SECOND * 1000, true);
        assertThat(lag.clock()).isEqualTo(LagClock.COMMIT_SECONDS);
        wall.set(SECOND + 2_000);
        assertThat(lag.lagMillis()).isEqualTo(2_000);
    }

    @Test
    void shouldGrowTheLagAgainWhenNothingArrivesForLong() {
        wall.set(SECOND + 10);
        lag.received(SECOND * 1000 + 5_000, true);
        wall.set(SECOND + 10 + SourceLag.SILENT_AFTER_MILLIS + 1);
        assertThat(lag.lagMillis()).isEqualTo(SourceLag.SILENT_AFTER_MILLIS + 6);
    }
}
