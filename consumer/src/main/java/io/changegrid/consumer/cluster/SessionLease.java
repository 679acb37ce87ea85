package io.changegrid.consumer.cluster;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a member knows, without asking ZooKeeper, about whether its participant session still holds
 * the partitions it was assigned. A partition is owned under one session: once that session
 * expired, Helix may have given it to another member, which claims a newer epoch. Helix tells the
 * member (it resets every partition) only after it reconnects, and a member frozen past its session
 * (a long GC pause, {@code kill -STOP}) runs on for a moment after it thaws before it hears
 * anything; this lease lets the partitions' dispatchers stop handing batches to their callbacks
 * meanwhile.
 *
 * <p>An {@link Ownership} handed out under one session is held while
 *
 * <ul>
 *   <li>the session is the same (an expiry or a new session ends every earlier ownership),
 *   <li>it is connected (a Disconnected event suspends it until SyncConnected says the same session
 *       goes on), and
 *   <li>no pause was seen: a ticker thread notes the time every {@code tick}; a gap longer than a
 *       third of the session timeout means this process (or its scheduling) stood still long enough
 *       for the session to lapse, and suspends every ownership until a read through the
 *       participant's own connection shows its live-instance node still owned by this session, or
 *       the connection is re-established under it. The dispatchers check the gap themselves too, so
 *       that one running before the ticker after a thaw sees it.
 * </ul>
 *
 * <p>Threading: state changes arrive on Helix's ZooKeeper event thread; {@link Ownership#isHeld} is
 * called from any thread and reads volatile fields only.
 */
final class SessionLease implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLease.class);
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final String instance;
    private final long tickNanos;
    private final long pauseNanos;
    private final BooleanSupplier confirm;
    private final ScheduledExecutorService ticker;
    private final ExecutorService confirmations;
    private final AtomicBoolean confirming = new AtomicBoolean();

    private final LongSupplier nanoClock;
    private volatile long lastTickNanos;
    private volatile long generation;
    private volatile boolean connected;
    private volatile boolean suspended;

    /**
     * @param instance the member's name, for messages
     * @param sessionTimeout the participant's session timeout
     * @param confirm reads, through the participant's connection, whether its session is alive (may
     *     block; runs on a thread of the lease's own)
     */
    SessionLease(String instance, Duration sessionTimeout, BooleanSupplier confirm) {
        this(instance, sessionTimeout, confirm, System::nanoTime);
    }

    /** As above, reading time from {@code nanoClock} (tests make it jump as a pause would). */
    SessionLease(
            String instance,
            Duration sessionTimeout,
            BooleanSupplier confirm,
            LongSupplier nanoClock) {
        this.instance = instance;
        this.nanoClock = nanoClock;
        this.lastTickNanos = nanoClock.getAsLong();
        long timeout = sessionTimeout.toNanos();
        this.tickNanos = Math.max(MIN_TICK_NANOS, Math.min(MAX_TICK_NANOS, timeout / 20));
        this.pauseNanos = timeout / 3;
        this.confirm = confirm;
        this.ticker =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "group-session-lease");
                            thread.setDaemon(true);
                            return thread;
                        });
        // Its own thread: a confirmation waits for ZooKeeper as long as it is unreachable, and
        // the ticks must go on meanwhile.
        this.confirmations =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "group-session-confirm");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /** Starts the ticker; the participant is connected now. */
    void start() {
        lastTickNanos = nanoClock.getAsLong();
        connected = true;
        ticker.scheduleAtFixedRate(this::tick, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    /** An ownership of a partition assigned now, under the current session. */
    Ownership ownership() {
        long assignedUnder = generation;
        return () -> holds(assignedUnder);
    }

    /** The participant's ZooKeeper connection changed state. */
    void stateChanged(KeeperState state) {
        switch (state) {
            case SyncConnected -> {
                // The server accepted this session again: it has not expired.
                connected = true;
                suspended = false;
            }
            case Disconnected -> connected = false;
            case Expired -> {
                connected = false;
                generation++;
                LOG.warn(
                        "member's ZooKeeper session expired, its partitions' deliveries stop:"
                                + " instance={}",
                        instance);
            }
            default -> {}
        }
    }

    /** The participant has a new session: whatever was owned before is not any more. */
    void newSession() {
        generation++;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        confirmations.shutdownNow();
    }

    private boolean holds(long assignedUnder) {
        // The tick first: a ticker that saw a pause marks the lease suspended before it moves the
        // tick on, so whoever reads the new tick reads the suspension too.
        long tick = lastTickNanos;
        long sinceTick = nanoClock.getAsLong() - tick;
        return sinceTick <= pauseNanos && !suspended && connected && generation == assignedUnder;
    }

    private void tick() {
        // A scheduled task that throws is never run again, and every gate would then close for
        // good a third of the session later: whatever goes wrong here is logged and the next tick
        // runs.
        try {
            checkPause();
        } catch (RuntimeException e) {
            LOG.error(
                    "session lease tick failed, the next tick tries again: instance={}",
                    instance,
                    e);
        }
    }

    private void checkPause() {
        long now = nanoClock.getAsLong();
        long gap = now - lastTickNanos;
        if (gap > pauseNanos) {
            suspended = true;
            LOG.warn(
                    "member stood still longer than a third of its session timeout, suspending"
                            + " deliveries until its session is confirmed: instance={}, pausedMillis={}",
                    instance,
                    TimeUnit.NANOSECONDS.toMillis(gap));
        }
        lastTickNanos = now;
        if (suspended && confirming.compareAndSet(false, true)) {
            try {
                confirmations.execute(this::confirmSession);
            } catch (RejectedExecutionException e) {
                confirming.set(false); // closed
            }
        }
    }

    /** Reads whether the session lives; lifts the suspension if it does and nothing changed. */
    private void confirmSession() {
        long before = generation;
        try {
            if (confirm.getAsBoolean() && generation == before && connected) {
                suspended = false;
                LOG.info("member's session confirmed, deliveries go on: instance={}", instance);
            }
        } catch (RuntimeException e) {
            // Not reachable now: the next tick asks again.
            LOG.debug(
                    "member's session not confirmed: instance={}, error={}",
                    instance,
                    e.toString());
        } finally {
            confirming.set(false);
        }
    }
}
