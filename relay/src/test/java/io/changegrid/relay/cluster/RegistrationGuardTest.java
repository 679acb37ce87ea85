package io.changegrid.relay.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The guard's decisions, checked step by step, with registrations that are counted but never made
 * (a null registrar, as {@link RelayRegistrar#forRelay} returns without ZooKeeper); the registrar
 * against a real ZooKeeper is {@code RelayRegistrarIT}'s, the whole path {@code RelaySilenceIT}'s
 * (deploy).
 */
class RegistrationGuardTest {

    private static final Duration SILENCE = Duration.ofSeconds(30);

    private final AtomicInteger registrations = new AtomicInteger();
    private long lastHeard = System.nanoTime();

    private RegistrationGuard guard(Duration silence) {
        return RegistrationGuard.unscheduled(
                () -> {
                    registrations.incrementAndGet();
                    return null;
                },
                () -> lastHeard,
                silence);
    }

    private void silentFor(Duration duration) {
        lastHeard = System.nanoTime() - duration.toNanos();
    }

    @Test
    void shouldWithdrawAndRegisterAgainWhenTheSourceFallsSilentAndIsHeardAgain() {
        try (RegistrationGuard guard = guard(SILENCE)) {
            assertThat(registrations).hasValue(1);
            silentFor(Duration.ofSeconds(29));
            guard.check();
            assertThat(guard.withdrawnForSilence()).isFalse();

            silentFor(Duration.ofSeconds(31));
            guard.check();
            assertThat(guard.withdrawnForSilence()).isTrue();
            guard.check();
            assertThat(registrations).hasValue(1);

            silentFor(Duration.ZERO);
            guard.check();
            assertThat(guard.withdrawnForSilence()).isFalse();
            assertThat(registrations).hasValue(2);
        }
    }

    @Test
    void shouldNeverRegisterAgainWhenTheFetcherStopped() {
        try (RegistrationGuard guard = guard(SILENCE)) {
            guard.withdrawForGood();
            silentFor(Duration.ofMinutes(1));
            guard.check();
            silentFor(Duration.ZERO);
            guard.check();

            assertThat(registrations).hasValue(1);
            assertThat(guard.withdrawnForSilence()).isFalse();
        }
    }

    @Test
    void shouldKeepTheRegistrationWhenTheSilenceTimeoutIsZero() {
        try (RegistrationGuard guard = guard(Duration.ZERO)) {
            silentFor(Duration.ofHours(1));
            guard.check();

            assertThat(guard.withdrawnForSilence()).isFalse();
            assertThat(registrations).hasValue(1);
        }
    }
}
