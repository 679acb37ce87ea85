package io.changegrid.relay.cluster;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a relay registered in ZooKeeper only while it is a relay worth choosing: its fetcher runs
 * and hears from the source. When nothing (no transaction, no heartbeat) has arrived for {@code
 * cluster.silenceTimeout} the registration is withdrawn, so consumer groups stop discovering a
 * relay whose binlog connection hangs or whose source is gone; it is made again once the source is
 * heard. When the fetcher has stopped for good, the registration is withdrawn for good.
 *
 * <p>Threading: one timer thread of its own ({@code relay-registration-guard}) checks every second;
 * {@link #withdrawForGood} and {@link #close} from any thread. Every change of the registrar is
 * made under this object's lock.
 */
public final class RegistrationGuard implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RegistrationGuard.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(1);

    private final Supplier<RelayRegistrar> registrations;
    private final LongSupplier lastHeardNanos;
    private final long silenceNanos;
    private final ScheduledExecutorService timer;
    private RelayRegistrar registrar;
    private boolean silent;
    private boolean finished;

    private RegistrationGuard(
            Supplier<RelayRegistrar> registrations, LongSupplier lastHeardNanos, Duration silence) {
        this.registrations = registrations;
        this.lastHeardNanos = lastHeardNanos;
        this.silenceNanos = silence.toNanos();
        this.timer =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "relay-registration-guard");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /**
     * Registers now (through {@code registrations}, e.g. {@link RelayRegistrar#forRelay}) and
     * watches the source from then on.
     *
     * @param lastHeardNanos {@link System#nanoTime()} when the fetcher last handed anything over
     * @param silence how long the source may be silent before the registration goes; zero: never
     */
    public static RegistrationGuard start(
            Supplier<RelayRegistrar> registrations, LongSupplier lastHeardNanos, Duration silence) {
        RegistrationGuard guard = unscheduled(registrations, lastHeardNanos, silence);
        if (guard.silenceNanos > 0) {
            guard.timer.scheduleWithFixedDelay(
                    guard::check,
                    CHECK_EVERY.toMillis(),
                    CHECK_EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        return guard;
    }

    /** Registered, but checked only when a test calls {@link #check}. */
    static RegistrationGuard unscheduled(
            Supplier<RelayRegistrar> registrations, LongSupplier lastHeardNanos, Duration silence) {
        RegistrationGuard guard = new RegistrationGuard(registrations, lastHeardNanos, silence);
        synchronized (guard) {
            guard.registrar = registrations.get();
        }
        return guard;
    }

    /** Whether the registration is withdrawn now because the source fell silent. */
    public synchronized boolean withdrawnForSilence() {
        return silent && !finished;
    }

    /** The fetcher stopped: the registration goes and is not made again. */
    public synchronized void withdrawForGood() {
        finished = true;
        timer.shutdownNow();
        if (registrar != null) {
            registrar.close();
            registrar = null;
            LOG.warn("relay registration withdrawn: its fetcher stopped on an error");
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        synchronized (this) {
            finished = true;
            if (registrar != null) {
                registrar.close();
                registrar = null;
            }
        }
    }

    /**
     * Withdraws or registers again as the source's silence says; the timer calls it every second.
     */
    synchronized void check() {
        if (finished || silenceNanos == 0) {
            return;
        }
        long quietNanos = System.nanoTime() - lastHeardNanos.getAsLong();
        if (!silent && quietNanos > silenceNanos) {
            silent = true;
            if (registrar != null) {
                registrar.close();
                registrar = null;
            }
            LOG.warn(
                    "relay registration withdrawn: nothing from the source (no transaction, no"
                            + " heartbeat) for {} ms, cluster.silenceTimeout={} ms; registering"
                            + " again once it is heard",
                    TimeUnit.NANOSECONDS.toMillis(quietNanos),
                    TimeUnit.NANOSECONDS.toMillis(silenceNanos));
        } else if (silent && quietNanos <= silenceNanos) {
            silent = false;
            registrar = registrations.get();
            LOG.info("the source is heard again: relay registering again");
        }
    }
}
