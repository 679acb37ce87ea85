package io.changegrid.relay.process;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the relay's process on an {@link Error} (an {@link OutOfMemoryError}, a {@link
 * StackOverflowError}, ...) on the fetcher or a serving thread. After one, no invariant of the
 * JVM's heap or of the thread's own state can be trusted: a relay that kept answering with a dead
 * fetcher, or with a half-written response, would be half alive. Ending is lossless: the replay
 * point is forced to disk at most {@code state.syncInterval} before, the restarted relay re-reads
 * from it and consumers continue from their checkpoints. A supervisor (systemd, Kubernetes, the
 * local cluster's launcher) restarts it.
 *
 * <p>The process halts without running shutdown hooks: they would close the fetcher and the HTTP
 * server, which may be what ran out of memory, and could hang; a halt is a {@code kill -9}, which
 * the relay is built to survive.
 *
 * <p>Thread-safe; never returns.
 */
public final class FatalErrors {

    /** The exit status of a relay ended by an error (EX_SOFTWARE). */
    public static final int EXIT_STATUS = 70;

    private static final Logger LOG = LoggerFactory.getLogger(FatalErrors.class);

    private FatalErrors() {}

    /**
     * Logs {@code error} as thrown where {@code where} says, then halts the JVM with {@link
     * #EXIT_STATUS}.
     */
    public static void halt(String where, Throwable error) {
        try {
            System.err.println(
                    "relay ending on a fatal error: where="
                            + where
                            + ", thread="
                            + Thread.currentThread().getName()
                            + ", error="
                            + error);
            LOG.error(
                    "relay ending on a fatal error; a supervisor restarts it from its replay point:"
                            + " where={}",
                    where,
                    error);
        } finally {
            Runtime.getRuntime().halt(EXIT_STATUS);
        }
    }
}
