package io.changegrid.gridkit.server;

import java.util.ArrayList;
import java.util.List;

/**
 * The command lines that initialise and run a private {@code mariadbd}. Pure functions of their
 * inputs, so the flags can be checked without starting anything.
 *
 * <p>{@code --no-defaults} comes first in both (the programs require that) so that the machine's
 * {@code /etc/mysql} configuration, written for its shared server, cannot leak in: port 3306, its
 * socket and its data directory above all.
 */
final class MariaDbCommand {
    /**
     * Small enough for a 2-core CI box running several servers: tests hold kilobytes of data. The
     * redo log size is given to the bootstrap too, or the server would resize it on first start.
     */
    private static final List<String> SMALL_FOOTPRINT =
            List.of(
                    "--innodb-buffer-pool-size=64M",
                    "--innodb-log-file-size=8M",
                    "--performance-schema=OFF");

    private MariaDbCommand() {}

    /** {@code mariadb-install-db}: system tables, no test database, root without a password. */
    static List<String> install(MariaDbBinaries binaries, MariaDbLayout layout, boolean asRoot) {
        var command = new ArrayList<String>();
        command.add(binaries.installDb().toString());
        command.add("--no-defaults");
        command.add("--datadir=" + layout.dataDir());
        if (asRoot) {
            command.add("--user=root");
        }
        // "normal" gives root@localhost/127.0.0.1 an empty password instead of unix_socket auth,
        // so that JDBC over TCP can log in as root to set the server up.
        command.add("--auth-root-authentication-method=normal");
        command.add("--skip-test-db");
        command.addAll(SMALL_FOOTPRINT);
        return command;
    }

    /** {@code mariadbd} on {@code 127.0.0.1:port} with the binlog settings of {@code config}. */
    static List<String> server(
            MariaDbBinaries binaries,
            MariaDbConfig config,
            MariaDbLayout layout,
            int port,
            boolean asRoot) {
        var command = new ArrayList<String>();
        command.add(binaries.server().toString());
        command.add("--no-defaults");
        if (asRoot) {
            command.add("--user=root"); // mariadbd refuses to run as root unless told to
        }
        command.add("--datadir=" + layout.dataDir());
        command.add("--bind-address=" + FreePort.HOST);
        command.add("--port=" + port);
        command.add("--socket=" + layout.socket());
        command.add("--pid-file=" + layout.pidFile());
        command.add("--log-error=" + layout.errorLog());
        command.add("--log-bin=binlog");
        command.add("--binlog-format=" + config.binlogFormat());
        command.add("--binlog-row-image=" + config.binlogRowImage());
        command.add("--server-id=" + config.serverId());
        // Clients connect by IP; skipping reverse DNS keeps a slow resolver out of every login.
        command.add("--skip-name-resolve");
        // The Debian package defaults to utf8mb4; without its config file the server would not.
        command.add("--character-set-server=utf8mb4");
        command.add("--collation-server=utf8mb4_general_ci");
        command.addAll(SMALL_FOOTPRINT);
        // Start and stop fast: a throwaway server has no warm cache worth saving or restoring,
        // and no data worth an fsync per commit.
        command.add("--innodb-buffer-pool-dump-at-shutdown=OFF");
        command.add("--innodb-buffer-pool-load-at-startup=OFF");
        command.add("--innodb-flush-log-at-trx-commit=2");
        command.addAll(config.extraOptions());
        return command;
    }
}
