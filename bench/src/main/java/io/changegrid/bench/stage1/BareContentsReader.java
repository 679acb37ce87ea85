package io.changegrid.bench.stage1;

import io.changegrid.fetchers.logminer.mining.ContentsQuery;
import io.changegrid.fetchers.logminer.mining.MiningStatements;
import io.changegrid.fetchers.logminer.mining.RedoFlush;
import io.changegrid.fetchers.logminer.standin.StandInMiningStatements;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * The ceiling of the LogMiner source on the stand-in: the stand-in's PostgreSQL answering the
 * fetcher's {@code v$logmnr_contents} query window after window, every column read through pgjdbc
 * and nothing else done with it (no CSF joining, assembly, parsing or encoding). The fetcher's own
 * pieces run it (its flush, its stand-in session statements, its query text) with its window size
 * and fetch size, the current SCN already at the end.
 */
final class BareContentsReader {

    record Result(long rows, long bytes, double seconds, double cpuSeconds) {}

    private BareContentsReader() {}

    static Result run(LogMinerBacklog backlog, long windowScns, int fetchSize) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", backlog.standIn().user());
        MiningStatements session = new StandInMiningStatements();
        String query = new ContentsQuery(List.of(LogMinerBacklog.OWNER)).sql();
        var threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long rows = 0;
        long bytes = 0;
        try (Connection connection =
                DriverManager.getConnection(backlog.standIn().jdbcUrl(), properties)) {
            session.prepareSession(connection);
            for (long lo = backlog.firstScn() - 1; lo < backlog.lastScn(); lo += windowScns) {
                long hi = Math.min(RedoFlush.flush(connection, backlog.lastScn()), lo + windowScns);
                session.startSession(connection, lo + 1, hi);
                try (var statement = connection.prepareStatement(query)) {
                    statement.setFetchSize(fetchSize);
                    statement.setLong(1, lo);
                    statement.setLong(2, hi);
                    statement.setString(3, LogMinerBacklog.OWNER);
                    try (ResultSet result = statement.executeQuery()) {
                        while (result.next()) {
                            rows++;
                            String redo = result.getString(2);
                            bytes += redo == null ? 0 : redo.length();
                            result.getLong(1);
                            result.getInt(3);
                            result.getTimestamp(4);
                            result.getBytes(5);
                            for (int c = 6; c <= 14; c++) {
                                result.getString(c);
                            }
                        }
                    }
                } finally {
                    session.endSession(connection);
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e9;
        return new Result(rows, bytes, seconds, cpu);
    }
}
