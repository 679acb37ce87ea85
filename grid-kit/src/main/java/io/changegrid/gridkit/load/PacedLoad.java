package io.changegrid.gridkit.load;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A source workload at a steady rate: transactions {@code 1..n}, each run by a {@link Transaction}
 * on a thread of its own, paced to {@code perSecond} (a transaction that runs late is not made up
 * for by a burst beyond the schedule). What a transaction writes is the caller's; counting, pacing,
 * stopping and the first failure are kept here once for the quickstart and the tests.
 *
 * <p>Threading: the load thread runs the transactions and closes the {@link Transaction} when it
 * ends; every other method may be called from any thread.
 */
public final class PacedLoad implements AutoCloseable {

    /** One source transaction: runs and commits transaction {@code number}. */
    @FunctionalInterface
    public interface Transaction {

        /**
         * Runs and commits transaction {@code number} (1, 2, ...).
         *
         * @return the rows it changed
         */
        long run(long number) throws Exception;

        /**
         * Releases what the transactions used (statements); called once, on the load thread, when
         * the load ends. Not {@link AutoCloseable}: nobody but the load closes it.
         */
        default void close() throws Exception {
            // nothing to release unless a transaction holds statements
        }
    }

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Exception failure;

    private PacedLoad(String name, long transactions, int perSecond, Transaction transaction) {
        if (transactions < 0 || perSecond < 1) {
            throw new IllegalArgumentException(
                    "invalid load: transactions="
                            + transactions
                            + ", perSecond="
                            + perSecond
                            + " (need transactions >= 0, perSecond >= 1)");
        }
        this.thread = new Thread(() -> run(transactions, perSecond, transaction), "load-" + name);
        // A caller that fails before close() must not be kept alive by its load.
        thread.setDaemon(true);
    }

    /** Starts the load: {@code transactions} transactions at {@code perSecond}. */
    public static PacedLoad start(
            String name, long transactions, int perSecond, Transaction transaction) {
        PacedLoad load = new PacedLoad(name, transactions, perSecond, transaction);
        load.thread.start();
        return load;
    }

    private void run(long transactions, int perSecond, Transaction transaction) {
        long interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long next = System.nanoTime();
        try {
            for (long n = 1; n <= transactions && !stopped; n++) {
                long changed = transaction.run(n);
                committed.incrementAndGet();
                rows.addAndGet(changed);
                next += interval;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait); // pacing the load, not waiting for a result
                }
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            close(transaction);
        }
    }

    private void close(Transaction transaction) {
        try {
            transaction.close();
        } catch (Exception e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
    }

    public long committedTransactions() {
        return committed.get();
    }

    public long committedRows() {
        return rows.get();
    }

    /** Whether transactions are still being run (false once done, stopped or failed). */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /** What ended the load early, if anything did. */
    public Optional<Exception> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * Waits until every transaction is committed.
     *
     * @throws IllegalStateException with the load's failure as its cause, or when {@code timeout}
     *     passes first
     */
    public void awaitDone(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        if (failure != null) {
            throw new IllegalStateException(
                    "load failed: thread=" + thread.getName() + ", committed=" + committed.get(),
                    failure);
        }
        if (thread.isAlive()) {
            throw new IllegalStateException(
                    "load not done in time: thread="
                            + thread.getName()
                            + ", committed="
                            + committed.get()
                            + ", timeout="
                            + timeout);
        }
    }

    /** Asks the load to stop after the transaction it runs. */
    public void stop() {
        stopped = true;
    }

    /**
     * Stops the load and waits up to 30 seconds for its thread to end, or less when this thread is
     * interrupted (the interrupt stays set).
     */
    @Override
    public void close() {
        stop();
        try {
            thread.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
