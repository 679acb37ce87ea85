package io.changegrid.bench.stage1;

import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.testkit.MariaDbConfig;
import io.changegrid.testkit.MariaDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The benchmark source: a private MariaDB tuned to take the whitepaper load fast (the load is not
 * what is measured), and a way to get a whitepaper-shaped load into a relay process's buffer
 * through the real path, for the stages that start from a full relay.
 */
public final class StageSource {

    private StageSource() {}

    /** A private MariaDB that loads fast: big buffer pool and log, no flush per commit. */
    public static MariaDbConfig sourceConfig() {
        return MariaDbConfig.builder()
                .extraOption("--innodb-buffer-pool-size=1G")
                .extraOption("--innodb-log-file-size=1G")
                .extraOption("--innodb-flush-log-at-trx-commit=0")
                .extraOption("--sync-binlog=0")
                .extraOption("--max-binlog-size=1G")
                .extraOption("--max-allowed-packet=64M")
                .build();
    }

    /**
     * Inserts {@code rows} whitepaper rows (3 tables, transactions of 100) into a new private
     * MariaDB, runs a relay process over them, and once its buffer holds them all hands it to
     * {@code whileServing}.
     */
    public static void runInsertsThroughRelay(long rows, RelayRun.WhileServing whileServing)
            throws Exception {
        runInsertsThroughRelay(rows, 0, whileServing, () -> {});
    }

    /**
     * As {@link #runInsertsThroughRelay(long, RelayRun.WhileServing)}, with the relay listening on
     * a given port, and {@code beforeRelay} run once the load is in the binlog and just before the
     * relay starts: the end-to-end run starts its consumer there.
     */
    public static void runInsertsThroughRelay(
            long rows, int relayPort, RelayRun.WhileServing whileServing, Runnable beforeRelay)
            throws Exception {
        Path work = Files.createTempDirectory("changegrid-stage-");
        try (MariaDbServer server = MariaDbServer.start(sourceConfig())) {
            WhitepaperLoad load = new WhitepaperLoad(3, 100, 42);
            ProgressLine progress = new ProgressLine(System.err, "load", rows);
            BinlogPosition from;
            BinlogPosition to;
            try (Connection connection = server.connect()) {
                load.createTables(connection);
                from = masterPosition(connection);
                load.insert(connection, rows, progress::report);
                to = masterPosition(connection);
            }
            beforeRelay.run();
            long bufferBytes =
                    Math.max(256L << 20, ((rows * 1200) / (64L << 20) + 2) * (64L << 20));
            new RelayRun(java.util.List.of(), "direct", relayPort)
                    .run(server, from, to, rows, work, "512m", bufferBytes, whileServing);
        }
    }

    /** A free TCP port on this machine. */
    public static int freePort() throws java.io.IOException {
        return RelayRun.freePort();
    }

    public static BinlogPosition masterPosition(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW MASTER STATUS")) {
            rows.next();
            return new BinlogPosition(rows.getString("File"), rows.getLong("Position"));
        }
    }
}
