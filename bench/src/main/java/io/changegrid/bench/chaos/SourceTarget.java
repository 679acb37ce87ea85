package io.changegrid.bench.chaos;

import io.changegrid.gridkit.server.MariaDbServer;

/** The private MariaDB source as a chaos target: SIGKILL of {@code mariadbd}, then a restart. */
final class SourceTarget implements ChaosTarget {

    private final MariaDbServer server;

    SourceTarget(MariaDbServer server) {
        this.server = server;
    }

    @Override
    public String name() {
        return "source";
    }

    @Override
    public void start() {
        server.restart();
    }

    @Override
    public void kill() {
        server.crash();
    }

    @Override
    public boolean isAlive() {
        return server.isRunning();
    }

    @Override
    public String exitDescription() {
        return "mariadbd exited, error log " + server.errorLog();
    }

    /** The server is closed by the run that started it, after the comparison. */
    @Override
    public void close() {}
}
