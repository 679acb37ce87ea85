package io.changegrid.consumer.group.cluster;

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
 *       goes on),
 *   <li>the connection, as the ticker reads it every {@code tick}, is up under that session: Helix
 *       hands state events over on the single thread that also runs its change callbacks, and a
 *       callback waiting on ZooKeeper during an outage holds the Disconnected event back for as
 *       long as the outage lasts, and
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
    private static final long NO_SESSION = 0;

    private final String instance;
    private final long tickNanos;
    private final long pauseNanos;
    private final BooleanSupplier confirm;
    private final Connection connection;
    private final ScheduledExecutorService ticker;
    private final ExecutorService confirmations;
    private final AtomicBoolean confirming = new AtomicBoolean();

    private final LongSupplier nanoClock;
    private volatile long lastTickNanos;
    private volatile long generation;
    private volatile boolean connected;
    private volatile boolean suspended;

    /** The session the connection was up under at the last tick; {@link #NO_SESSION} if down. */
    private volatile long connectedSession = NO_SESSION;

    /**
     * The participant's connection as it is now, read without waiting for Helix's events. Called on
     * the ticker and when a partition is assigned; must not block for long.
     */
    interface Connection {
        /** The id of the connection's current session, whether connected or not; 0 if none. */
        long sessionId();

        /** Whether the connection is up now. */
        boolean isConnected();
    }

    /**
     * @param instance the member's name, for messages
     * @param sessionTimeout the participant's session timeout
     * @param confirm reads, through the participant's connection, whether its session is alive (may
     *     block; runs on a thread of the lease's own)
     * @param connection the participant's connection
     */
    SessionLease(
            String instance,
            Duration sessionTimeout,
            BooleanSupplier confirm,
            Connection connection) {
        this(instance, sessionTimeout, confirm, connection, System::nanoTime);
    }

    /** As above, reading time from {@code nanoClock} (tests make it jump as a pause would). */
    SessionLease(
            String instance,
            Duration sessionTimeout,
            BooleanSupplier confirm,
            Connection connection,
            LongSupplier nanoClock) {
        this.instance = instance;
        this.connection = connection;
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
        readConnection();
        ticker.scheduleAtFixedRate(this::tick, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    /** An ownership of a partition assigned now, under the current session. */
    Ownership ownership() {
        long assignedUnder = generation;
        long session = connection.sessionId();
        return () -> holds(assignedUnder, session);
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

    private boolean holds(long assignedUnder, long session) {
        // The tick first: a ticker that saw a pause marks the lease suspended before it moves the
        // tick on, so whoever reads the new tick reads the suspension too.
        long tick = lastTickNanos;
        long sinceTick = nanoClock.getAsLong() - tick;
        return sinceTick <= pauseNanos
                && !suspended
                && connected
                && generation == assignedUnder
                && connectedSession == session
                && session != NO_SESSION;
    }

    private void tick() {
        // A scheduled task that throws is never run again, and every gate would then close for
        // good a third of the session later: whatever goes wrong here is logged and the next tick
        // runs.
        try {
            checkPause();
            readConnection();
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

    private void readConnection() {
        long session = connection.sessionId();
        long now = connection.isConnected() ? session : NO_SESSION;
        long before = connectedSession;
        if (now != before) {
            connectedSession = now;
            LOG.info(
                    "member's ZooKeeper connection {}: instance={}, sessionId=0x{}",
                    now == NO_SESSION ? "down, its partitions' deliveries pause" : "up",
                    instance,
                    Long.toHexString(now == NO_SESSION ? before : now));
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
