package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lease on a member's session, with a clock the test moves: a jump of the clock is what a
 * frozen process sees when it runs again.
 */
class SessionLeaseTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean alive = new AtomicBoolean();
    private final AtomicInteger confirmations = new AtomicInteger();
    private final AtomicLong session = new AtomicLong(0x51L);
    private final AtomicBoolean up = new AtomicBoolean(true);
    private final SessionLease lease =
            new SessionLease(
                    "m0",
                    Duration.ofSeconds(3),
                    () -> {
                        confirmations.incrementAndGet();
                        return alive.get();
                    },
                    new SessionLease.Connection() {
                        @Override
                        public long sessionId() {
                            return session.get();
                        }

                        @Override
                        public boolean isConnected() {
                            return up.get();
                        }
                    },
                    clock::get);

    @AfterEach
    void close() {
        lease.close();
    }

    private void pause(Duration duration) {
        clock.addAndGet(duration.toNanos());
    }

    @Test
    void shouldHoldOnlyWhileConnectedUnderTheSessionItWasAssignedIn() {
        lease.start();
        Ownership first = lease.ownership();
        assertThat(first.isHeld()).isTrue();

        lease.stateChanged(KeeperState.Disconnected);
        assertThat(first.isHeld()).as("disconnected: maybe expired meanwhile").isFalse();
        lease.stateChanged(KeeperState.SyncConnected);
        assertThat(first.isHeld()).as("the same session goes on").isTrue();

        lease.stateChanged(KeeperState.Disconnected);
        lease.stateChanged(KeeperState.Expired);
        lease.newSession();
        lease.stateChanged(KeeperState.SyncConnected);
        assertThat(first.isHeld()).as("assigned under the expired session").isFalse();
        assertThat(lease.ownership().isHeld()).as("assigned under the new one").isTrue();
    }

    @Test
    void shouldStopHoldingAtOnceAfterAPauseAndHoldAgainWhenTheSessionIsConfirmed() {
        lease.start();
        Ownership owned = lease.ownership();

        pause(Duration.ofSeconds(2));

        assertThat(owned.isHeld()).as("before the ticker ran after the pause").isFalse();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> confirmations.get() >= 2);
        assertThat(owned.isHeld()).as("the session is not confirmed").isFalse();

        alive.set(true);

        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(owned::isHeld);
    }

    @Test
    void shouldHoldAgainAfterAPauseWhenTheConnectionComesBackUnderTheSameSession() {
        lease.start();
        Ownership owned = lease.ownership();
        pause(Duration.ofSeconds(2));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> confirmations.get() >= 1);

        lease.stateChanged(KeeperState.Disconnected);
        lease.stateChanged(KeeperState.SyncConnected);

        assertThat(owned.isHeld()).isTrue();
    }

    @Test
    void shouldStopHoldingWhenTheConnectionIsDownThoughNoEventSaidSo() {
        lease.start();
        Ownership owned = lease.ownership();

        up.set(false);
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(() -> !owned.isHeld());

        up.set(true);
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(owned::isHeld);
    }

    @Test
    void shouldStopHoldingWhenTheSessionChangedThoughNoEventSaidSo() {
        lease.start();
        Ownership first = lease.ownership();

        session.set(0x52L);
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(() -> !first.isHeld());

        Ownership second = lease.ownership();
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(second::isHeld);
        assertThat(first.isHeld()).as("assigned under the session before").isFalse();
    }
}
