package io.changegrid.gridkit.server;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes the servers that are still open when the JVM exits, so that no {@code mariadbd} outlives
 * the JVM that started it (a test run, the quickstart, bench) even when its owner forgot {@code
 * close()} or the run was aborted with Ctrl-C. A {@code kill -9} skips every hook; {@link
 * ScratchArea} covers that case.
 *
 * <p>One hook for all fixtures, installed on first use: one thread per fixture would race the
 * others for the same CPU during exit for no benefit.
 */
final class ExitGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ExitGuard.class);
    private static final Set<AutoCloseable> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();

    private ExitGuard() {}

    static void register(AutoCloseable fixture) {
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(ExitGuard::closeAll, "changegrid-grid-kit-exit"));
        }
        OPEN.add(fixture);
    }

    static void unregister(AutoCloseable fixture) {
        OPEN.remove(fixture);
    }

    private static void closeAll() {
        for (var fixture : List.copyOf(OPEN)) {
            try {
                fixture.close();
            } catch (Exception e) {
                // The JVM is exiting: nothing can handle this any more, so it is only reported.
                LOG.warn("cannot close test fixture at JVM exit: fixture={}", fixture, e);
            }
        }
    }
}
