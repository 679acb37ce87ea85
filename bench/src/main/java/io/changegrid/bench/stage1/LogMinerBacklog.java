package io.changegrid.bench.stage1;

import io.changegrid.fetchers.logminer.assembly.TimelineScn;
import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.gridkit.logminer.LoadRedo;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.server.PostgresServer;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The stage-1 load as a LogMiner backlog on the stand-in: grid-kit's load generator's transactions
 * (the same ones the mysql run writes into MariaDB) rendered by {@link LoadRedo} into {@code
 * v$logmnr_contents} rows, written before anything is timed. The stand-in's current SCN is held
 * where it was, so a fetcher sees none of it until {@link #release} moves the SCN to the last row.
 */
record LogMinerBacklog(
        LogMinerStandIn standIn,
        long firstScn,
        long lastScn,
        long events,
        long transactions,
        long rows,
        long redoBytes) {

    static final String OWNER = "BENCH";

    private static final int BATCH = 200;

    static LogMinerBacklog write(PostgresServer server, LoadShape shape) throws SQLException {
        LogMinerStandIn standIn = LogMinerStandIn.create(server, "oracle");
        List<String> names =
                IntStream.range(0, shape.tables()).mapToObj(WorkloadTables::candidateName).toList();
        var load = new LoadGenerator(WorkloadTables.of(LoadDialect.MARIADB, "bench", names), shape);
        long held = standIn.currentScn();
        LoadRedo redo = new LoadRedo(OWNER, held + 1);
        redo.define(standIn, names);
        long[] transactions = new long[1];
        SQLException[] failure = new SQLException[1];
        load.forEachTransaction(
                statements -> {
                    redo.transaction(statements);
                    if (++transactions[0] % BATCH == 0 && failure[0] == null) {
                        failure[0] = write(redo, standIn, held);
                    }
                });
        if (failure[0] == null) {
            failure[0] = write(redo, standIn, held);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        standIn.execute("ANALYZE logmnr_redo");
        return new LogMinerBacklog(
                standIn,
                held + 1,
                redo.scn(),
                shape.records(),
                transactions[0],
                redo.rows(),
                redo.redoChars()); // SQL_REDO is ASCII here: characters are bytes
    }

    /** Writes the rendered rows flushed, the current SCN left at {@code held}. */
    private static SQLException write(LoadRedo redo, LogMinerStandIn standIn, long held) {
        try {
            redo.write(standIn, held);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /** Moves the stand-in's current SCN to the backlog's last row: a fetcher starts mining it. */
    void release() throws SQLException {
        standIn.execute("UPDATE v$database SET current_scn = " + lastScn);
    }

    /** The relay's last published timeline SCN once it has published the backlog's last commit. */
    long lastCommitTimelineScn() {
        return TimelineScn.of(lastScn, 0); // the last commit is alone at its SCN
    }
}
