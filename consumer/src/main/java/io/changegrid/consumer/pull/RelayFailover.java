package io.changegrid.consumer.pull;

import io.changegrid.consumer.api.BootstrapRequiredException;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.config.Backoff;
import java.util.Arrays;
import java.util.List;

/**
 * The puller's state machine as pure logic: which relay to ask, when to switch to the next one,
 * when to back off and when to give up (see {@link PullerState} for the diagram). The puller feeds
 * it the outcome of every exchange and does what {@link #state()} says; nothing here touches the
 * network, so every transition is unit-tested.
 *
 * <ul>
 *   <li>A relay error (connection refused or lost, timeout, 5xx, corrupt response, schema not
 *       served) moves to the next relay at once; when every relay failed in a row the puller backs
 *       off, exponentially, before the next round.
 *   <li>A 410 (checkpoint older than the relay's buffer) also moves to the next relay, which may
 *       still hold the checkpoint; once every relay answered 410 since the last successful pull,
 *       the puller fails with {@link BootstrapRequiredException}, or, when it bootstraps by itself
 *       ({@code bootstrap.onTooOld: snapshot}), is told to begin a snapshot ({@link
 *       #takeSnapshotRestart()}) and picks a relay again.
 *   <li>A successful pull resets all of that.
 *   <li>A relay whose source time stopped changing ({@link StallWatch}) is left for the next relay
 *       after its answer was taken, like a relay error, when there is another relay to ask; with
 *       one relay the puller stays.
 * </ul>
 *
 * <p>Not thread-safe: owned by the puller thread.
 */
public final class RelayFailover {

    private final List<String> relays;
    private final Backoff backoff;
    private final boolean[] tooOld;
    private PullerState state = PullerState.PICK_RELAY;
    private int relay;
    private int failedInRound;
    private int rounds;
    private int tooOldCount;
    private long oldestScn = -1;
    private ConsumerException failure;
    private final boolean snapshotOnTooOld;
    private boolean snapshotRestart;

    /**
     * @param relays the relays' names (URLs), in failover order
     * @param backoff the waits between rounds
     */
    public RelayFailover(List<String> relays, Backoff backoff) {
        this(relays, backoff, false);
    }

    /**
     * @param relays the relays' names (URLs), in failover order
     * @param backoff the waits between rounds
     * @param snapshotOnTooOld whether a 410 from every relay begins a snapshot instead of failing
     */
    public RelayFailover(List<String> relays, Backoff backoff, boolean snapshotOnTooOld) {
        this.snapshotOnTooOld = snapshotOnTooOld;
        if (relays.isEmpty()) {
            throw new IllegalArgumentException("at least one relay is needed");
        }
        this.relays = List.copyOf(relays);
        this.backoff = backoff;
        this.tooOld = new boolean[relays.size()];
    }

    public PullerState state() {
        return state;
    }

    /** The index of the relay to ask. */
    public int relay() {
        return relay;
    }

    /** Why the puller failed, once {@link PullerState#FAILED}. */
    public ConsumerException failure() {
        return failure;
    }

    /** How long to wait in {@link PullerState#BACKOFF}. */
    public long backoffNanos() {
        return backoff.delayNanos(rounds);
    }

    /** PICK_RELAY → STREAMING. */
    public void onPicked() {
        expect(PullerState.PICK_RELAY, "picked");
        state = PullerState.STREAMING;
    }

    /** A response was taken into the buffer: STREAMING stays, failures are forgotten. */
    public void onPulled() {
        expect(PullerState.STREAMING, "pulled");
        failedInRound = 0;
        rounds = 0;
        if (tooOldCount > 0) {
            Arrays.fill(tooOld, false);
            tooOldCount = 0;
            oldestScn = -1;
        }
    }

    /** The relay failed: next relay, or BACKOFF after a whole round of failures. */
    public void onRelayError() {
        expect(PullerState.STREAMING, "relay error");
        nextRelay();
    }

    /**
     * The relay answered, but its source time has not changed for {@code fetch.stallTimeout}: next
     * relay as after a relay error. Call after {@link #onPulled()}; a no-op with one relay, which
     * may be stalled but is still the only one.
     *
     * @return whether the puller moves to another relay
     */
    public boolean onStalled() {
        expect(PullerState.STREAMING, "stalled");
        if (relays.size() == 1) {
            return false;
        }
        nextRelay();
        return true;
    }

    /**
     * The relay answered 410: next relay, or FAILED once every relay did.
     *
     * @param checkpointScn the checkpoint asked for
     * @param relayOldestScn the oldest SCN the relay holds
     */
    public void onTooOld(long checkpointScn, long relayOldestScn) {
        expect(PullerState.STREAMING, "410");
        if (!tooOld[relay]) {
            tooOld[relay] = true;
            tooOldCount++;
        }
        oldestScn = Math.max(oldestScn, relayOldestScn);
        if (tooOldCount == relays.size() && snapshotOnTooOld) {
            Arrays.fill(tooOld, false);
            tooOldCount = 0;
            oldestScn = -1;
            snapshotRestart = true;
            state = PullerState.PICK_RELAY;
            return;
        }
        if (tooOldCount == relays.size()) {
            fail(
                    new BootstrapRequiredException(
                            checkpointScn, oldestScn, String.join(",", relays)));
            return;
        }
        nextRelay();
    }

    /**
     * Whether every relay answered 410 and the puller must begin a snapshot now (at most once per
     * such round: the flag is cleared).
     */
    public boolean takeSnapshotRestart() {
        boolean restart = snapshotRestart;
        snapshotRestart = false;
        return restart;
    }

    /** An error no relay can cure (a rejected request, a transaction larger than the buffer). */
    public void onFatal(ConsumerException error) {
        expect(PullerState.STREAMING, "fatal error");
        fail(error);
    }

    /** BACKOFF → PICK_RELAY. */
    public void onBackoffElapsed() {
        expect(PullerState.BACKOFF, "backoff elapsed");
        state = PullerState.PICK_RELAY;
    }

    /** Any state → STOPPED, unless already FAILED. */
    public void onStop() {
        if (state != PullerState.FAILED) {
            state = PullerState.STOPPED;
        }
    }

    private void nextRelay() {
        relay = (relay + 1) % relays.size();
        failedInRound++;
        if (failedInRound >= relays.size()) {
            failedInRound = 0;
            rounds++;
            state = PullerState.BACKOFF;
        } else {
            state = PullerState.PICK_RELAY;
        }
    }

    private void fail(ConsumerException error) {
        failure = error;
        state = PullerState.FAILED;
    }

    private void expect(PullerState expected, String event) {
        if (state != expected) {
            throw new IllegalStateException(
                    "puller transition not allowed: state=" + state + ", event=" + event);
        }
    }
}
