package io.changegrid.appliers.batch;

import io.changegrid.appliers.checkpoint.LaneCheckpoint;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Commits every lane to one checkpoint and says whether all of them made it: the consumer's
 * checkpoint may only move when they did. Lanes commit in parallel, each its own target
 * transaction; a lane that committed stays committed when another fails (its checkpoint row says
 * so, and a redelivery skips its part), so a failure never re-applies a committed lane's work.
 *
 * <p>Threading: {@link #commitAll} from the dispatcher thread, which waits for every lane, also
 * when interrupted.
 */
public final class Committer implements AutoCloseable {

    private final ExecutorService pool;

    /**
     * @param lanes how many lanes there will be; one lane commits on the calling thread
     */
    public Committer(int lanes) {
        this.pool =
                lanes > 1
                        ? Executors.newFixedThreadPool(
                                lanes,
                                runnable -> {
                                    Thread thread = new Thread(runnable, "applier-lane");
                                    thread.setDaemon(true);
                                    return thread;
                                })
                        : null;
    }

    /**
     * Commits each lane at {@code to} and returns when every lane's commit has ended. An interrupt
     * does not end the wait early; it stays set on the thread.
     *
     * @throws SQLException the first lane's error (others are suppressed onto it)
     * @throws RuntimeException a lane's runtime error, e.g. a fencing or a value without a target
     *     form
     */
    public void commitAll(List<Lane> lanes, LaneCheckpoint to, long epoch) throws SQLException {
        if (pool == null) {
            for (Lane lane : lanes) {
                lane.commit(to, epoch);
            }
            return;
        }
        List<Future<Void>> results = new ArrayList<>();
        for (Lane lane : lanes) {
            results.add(
                    pool.submit(
                            () -> {
                                lane.commit(to, epoch);
                                return null;
                            }));
        }
        // Every lane's commit is waited for, even when this thread is interrupted: the caller
        // rolls the lanes back next, on the same connections, and a commit still running there
        // would race with the rollback. A commit is not cancelled either: interrupting a JDBC
        // call mid-commit leaves the lane's connection in an unknown state.
        boolean interrupted = false;
        Exception first = null;
        for (Future<Void> result : results) {
            while (true) {
                try {
                    result.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Exception cause =
                            e.getCause() instanceof Exception ex ? ex : new RuntimeException(e);
                    if (first == null) {
                        first = cause;
                    } else {
                        first.addSuppressed(cause);
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            // Every lane has ended: the outcome below is the batch's, and the interrupt is kept
            // for the caller's next wait.
            Thread.currentThread().interrupt();
        }
        if (first instanceof SQLException sql) {
            throw sql;
        }
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first != null) {
            throw new IllegalStateException("lane commit failed: " + first, first);
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
