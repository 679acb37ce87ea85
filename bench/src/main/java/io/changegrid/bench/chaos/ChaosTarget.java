package io.changegrid.bench.chaos;

/** A component the chaos run kills with SIGKILL and starts again. */
interface ChaosTarget extends AutoCloseable {

    /** Its name in reports, e.g. {@code relay-1}. */
    String name();

    /** Starts it (again, after a kill); returns once it was launched. */
    void start() throws Exception;

    /** {@code kill -9}: no shutdown hook, no final checkpoint. Returns once it is gone. */
    void kill() throws Exception;

    boolean isAlive();

    /** How it ended, for a component found dead that nobody killed. */
    String exitDescription();

    /** Stops it for good at the end of the run (a requested stop). */
    @Override
    void close();
}
