package io.changegrid.gridkit.server;

import java.nio.file.Path;

/**
 * The files of one private {@code mariadbd}, all inside its scratch directory so that deleting that
 * directory removes every trace of the server, socket and pid file included.
 *
 * @param base the scratch directory
 */
record MariaDbLayout(Path base) {

    Path dataDir() {
        return base.resolve("data");
    }

    /** Kept short: a Unix socket path must fit in 108 bytes. */
    Path socket() {
        return base.resolve("mariadbd.sock");
    }

    Path pidFile() {
        return base.resolve("mariadbd.pid");
    }

    /** The server's error log ({@code --log-error}); its tail goes into start failures. */
    Path errorLog() {
        return base.resolve("error.log");
    }

    /** What {@code mariadbd} prints before it opens its error log. */
    Path consoleLog() {
        return base.resolve("console.log");
    }

    /** Output of {@code mariadb-install-db}. */
    Path installLog() {
        return base.resolve("install.log");
    }
}
