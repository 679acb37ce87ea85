package io.changegrid.bench.stage1;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The ceiling of the LogMiner source on the stand-in: the stand-in's PostgreSQL answering the
 * fetcher's {@code v$logmnr_contents} query window after window, every column read through pgjdbc
 * and nothing else done with it (no CSF joining, assembly, parsing or encoding). The same window
 * size, flush, session calls and query text the fetcher uses, with the current SCN already at the
 * end.
 */
final class BareContentsReader {

    /** The columns and filter of the fetcher's {@code ContentsQuery}, for one owner. */
    static final String QUERY =
            "SELECT SCN, SQL_REDO, OPERATION_CODE, \"TIMESTAMP\", XID, CSF, SEG_OWNER, TABLE_NAME,"
                    + " ROW_ID, \"ROLLBACK\", INFO, SSN, \"THREAD#\", RS_ID FROM V$LOGMNR_CONTENTS"
                    + " WHERE SCN > ? AND SCN <= ? AND (OPERATION_CODE IN (6, 7, 36) OR"
                    + " (OPERATION_CODE IN (1, 2, 3, 5, 9, 10, 11, 29, 255) AND SEG_OWNER IN (?)))";

    record Result(long rows, long bytes, double seconds, double cpuSeconds) {}

    private BareContentsReader() {}

    static Result run(LogMinerBacklog backlog, long windowScns, int fetchSize) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", backlog.standIn().user());
        var threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long rows = 0;
        long bytes = 0;
        try (Connection connection =
                DriverManager.getConnection(backlog.standIn().jdbcUrl(), properties)) {
            for (long lo = backlog.firstScn() - 1; lo < backlog.lastScn(); lo += windowScns) {
                long hi = Math.min(backlog.lastScn(), lo + windowScns);
                // The fetcher's flush before each window (RedoFlush), part of its cost too.
                try (var flush =
                        connection.prepareStatement("UPDATE LOG_MINING_FLUSH SET LAST_SCN = ?")) {
                    flush.setLong(1, hi);
                    flush.executeUpdate();
                }
                try (var session =
                        connection.prepareStatement("SELECT dbms_logmnr_start_logmnr(?, ?)")) {
                    session.setLong(1, lo + 1);
                    session.setLong(2, hi);
                    session.execute();
                }
                try (var statement = connection.prepareStatement(QUERY)) {
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
                }
                try (var end = connection.prepareStatement("SELECT dbms_logmnr_end_logmnr()")) {
                    end.execute();
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e9;
        return new Result(rows, bytes, seconds, cpu);
    }
}
