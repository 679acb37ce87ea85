package io.changegrid.consumer.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.consumer.api.BootstrapRequiredException;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.config.Backoff;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayFailoverTest {

    private static final Backoff BACKOFF =
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(350));

    private final RelayFailover failover =
            new RelayFailover(List.of("http://a/", "http://b/", "http://c/"), BACKOFF);

    @Test
    void shouldStreamFromTheFirstRelayWhenItAnswers() {
        assertThat(failover.state()).isEqualTo(PullerState.PICK_RELAY);
        failover.onPicked();
        failover.onPulled();
        failover.onPulled();

        assertThat(failover.state()).isEqualTo(PullerState.STREAMING);
        assertThat(failover.relay()).isZero();
    }

    @Test
    void shouldSwitchToTheNextRelayAtOnceWhenOneFails() {
        failover.onPicked();
        failover.onRelayError();

        assertThat(failover.state()).isEqualTo(PullerState.PICK_RELAY);
        assertThat(failover.relay()).isEqualTo(1);
        failover.onPicked();
        failover.onPulled();
        assertThat(failover.relay()).isEqualTo(1);
    }

    @Test
    void shouldMoveToTheNextRelayWhenTheOneItStreamsFromIsStalled() {
        failover.onPicked();
        failover.onPulled();

        assertThat(failover.onStalled()).isTrue();

        assertThat(failover.state()).isEqualTo(PullerState.PICK_RELAY);
        assertThat(failover.relay()).isEqualTo(1);
    }

    @Test
    void shouldStayOnTheOnlyRelayWhenItIsStalled() {
        RelayFailover single = new RelayFailover(List.of("http://a/"), BACKOFF);
        single.onPicked();
        single.onPulled();

        assertThat(single.onStalled()).isFalse();

        assertThat(single.state()).isEqualTo(PullerState.STREAMING);
        assertThat(single.relay()).isZero();
    }

    @Test
    void shouldBackOffLongerAndLongerWhenEveryRelayFailsInARow() {
        failAll();
        assertThat(failover.state()).isEqualTo(PullerState.BACKOFF);
        assertThat(failover.relay()).as("round starts over at the first").isZero();
        assertThat(failover.backoffNanos()).isEqualTo(Duration.ofMillis(100).toNanos());

        failover.onBackoffElapsed();
        failAll();
        assertThat(failover.backoffNanos()).isEqualTo(Duration.ofMillis(200).toNanos());
        failover.onBackoffElapsed();
        failAll();
        assertThat(failover.backoffNanos())
                .as("capped")
                .isEqualTo(Duration.ofMillis(350).toNanos());
    }

    @Test
    void shouldForgetFailuresWhenARelayAnswersAgain() {
        failAll();
        failover.onBackoffElapsed();
        failover.onPicked();
        failover.onRelayError();
        failover.onPicked();
        failover.onPulled();
        failover.onRelayError();
        failover.onPicked();
        failover.onRelayError();

        assertThat(failover.state())
                .as("two failures after a success are no round")
                .isEqualTo(PullerState.PICK_RELAY);
        failover.onPicked();
        failover.onRelayError();
        assertThat(failover.state()).isEqualTo(PullerState.BACKOFF);
        assertThat(failover.backoffNanos()).isEqualTo(Duration.ofMillis(100).toNanos());
    }

    @Test
    void shouldTryTheOtherRelaysWhenOneNoLongerHoldsTheCheckpoint() {
        failover.onPicked();
        failover.onTooOld(42, 1000);

        assertThat(failover.state()).isEqualTo(PullerState.PICK_RELAY);
        assertThat(failover.relay()).isEqualTo(1);
        failover.onPicked();
        failover.onPulled();
        assertThat(failover.state()).isEqualTo(PullerState.STREAMING);
    }

    @Test
    void shouldFailWithBootstrapRequiredWhenEveryRelayAnswers410() {
        failover.onPicked();
        failover.onTooOld(42, 1000);
        failover.onPicked();
        failover.onTooOld(42, 1500);
        failover.onPicked();
        failover.onTooOld(42, 1200);

        assertThat(failover.state()).isEqualTo(PullerState.FAILED);
        assertThat(failover.failure())
                .isInstanceOf(BootstrapRequiredException.class)
                .hasMessage(
                        "checkpoint older than every relay's buffer, the consumer must bootstrap:"
                                + " checkpoint=42, oldestScn=1500, relays=http://a/,http://b/,http://c/");
    }

    @Test
    void shouldAskForASnapshotWhenEveryRelayAnswers410AndItBootstrapsByItself() {
        RelayFailover bootstrapping =
                new RelayFailover(List.of("http://a/", "http://b/"), BACKOFF, true);
        bootstrapping.onPicked();
        bootstrapping.onTooOld(42, 1000);
        assertThat(bootstrapping.takeSnapshotRestart()).isFalse();
        bootstrapping.onPicked();
        bootstrapping.onTooOld(42, 1500);

        assertThat(bootstrapping.state()).isEqualTo(PullerState.PICK_RELAY);
        assertThat(bootstrapping.failure()).isNull();
        assertThat(bootstrapping.takeSnapshotRestart()).isTrue();
        assertThat(bootstrapping.takeSnapshotRestart()).as("taken once").isFalse();
        bootstrapping.onPicked();
        bootstrapping.onPulled();
        assertThat(bootstrapping.state()).isEqualTo(PullerState.STREAMING);
    }

    @Test
    void shouldKeepTryingWhenSomeRelaysAnswer410AndOthersAreDown() {
        failover.onPicked();
        failover.onTooOld(42, 1000);
        failover.onPicked();
        failover.onRelayError();
        failover.onPicked();
        failover.onRelayError();

        assertThat(failover.state()).isEqualTo(PullerState.BACKOFF);
        failover.onBackoffElapsed();
        failover.onPicked();
        failover.onTooOld(42, 1000);
        assertThat(failover.state())
                .as("relay b may come back holding it")
                .isEqualTo(PullerState.PICK_RELAY);
    }

    @Test
    void shouldFailWhenAnErrorNoRelayCanCureOccurs() {
        failover.onPicked();
        failover.onFatal(new ConsumerException("relay rejected the stream request"));

        assertThat(failover.state()).isEqualTo(PullerState.FAILED);
        failover.onStop();
        assertThat(failover.state())
                .as("a failure is not overwritten")
                .isEqualTo(PullerState.FAILED);
    }

    @Test
    void shouldStopFromAnyStateWhenAsked() {
        failAll();
        failover.onStop();

        assertThat(failover.state()).isEqualTo(PullerState.STOPPED);
        assertThat(failover.state().isTerminal()).isTrue();
    }

    @Test
    void shouldRefuseATransitionThatTheStateDoesNotAllow() {
        assertThatThrownBy(failover::onPulled)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("puller transition not allowed: state=PICK_RELAY, event=pulled");
    }

    private void failAll() {
        for (int i = 0; i < 3; i++) {
            failover.onPicked();
            failover.onRelayError();
        }
    }
}
