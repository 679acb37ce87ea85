package io.changegrid.bench.chaos;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for the target to catch up with the source: before the chaos, until the preloaded rows are
 * there (the grid flows); after it, until every table equals the source's, and still does a few
 * seconds later (a late replay of old changes would undo it).
 *
 * <p>Threading: the chaos run's control thread.
 */
final class Drain {

    /** The last comparison, whether it found the tables equal, and the seconds it took to. */
    record Result(boolean equal, double seconds, List<TableDiff> diffs) {}

    /** Called between comparisons: starts any component found dead. */
    @FunctionalInterface
    interface Reviver {
        void reviveAll() throws Exception;
    }

    private static final long POLL_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long CONFIRM_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final MariaDbServer source;
    private final PostgresDatabase target;

    Drain(MariaDbServer source, PostgresDatabase target) {
        this.source = source;
        this.target = target;
    }

    /** Until the target holds the preloaded accounts and transfers. */
    void awaitPreload(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (targetRows("accounts") < ChaosLoad.PRELOADED_ACCOUNTS
                || targetRows("transfers") < ChaosLoad.PRELOADED_TRANSFERS) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the grid did not apply the preloaded rows in time: after="
                                + timeout
                                + ", target accounts="
                                + targetRows("accounts")
                                + ", transfers="
                                + targetRows("transfers"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
        }
    }

    /** Compares every {@link #POLL_NANOS} until equal and confirmed, or {@code timeout}. */
    Result untilEqual(Duration timeout, Reviver reviver) throws Exception {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (true) {
            reviver.reviveAll();
            List<TableDiff> diffs = compare();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (diffs.stream().allMatch(TableDiff::equal)) {
                LockSupport.parkNanos(CONFIRM_NANOS);
                List<TableDiff> again = compare();
                return new Result(again.stream().allMatch(TableDiff::equal), seconds, again);
            }
            if (System.nanoTime() > deadline) {
                return new Result(false, seconds, diffs);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    List<TableDiff> compare() throws SQLException {
        List<TableDiff> diffs = new ArrayList<>();
        try (Connection from = source.connect();
                Connection to = target.connect()) {
            for (String table : ChaosLoad.TABLES) {
                diffs.add(TableDiff.of(from, to, ChaosLoad.SCHEMA, table));
            }
        }
        return diffs;
    }

    /** Rows of {@code chaos.<table>} in the target; 0 while the applier has not created it. */
    private long targetRows(String table) throws SQLException {
        try (Connection to = target.connect();
                PreparedStatement exists =
                        to.prepareStatement(
                                "SELECT count(*) FROM information_schema.tables WHERE"
                                        + " table_schema = ? AND table_name = ?")) {
            exists.setString(1, ChaosLoad.SCHEMA);
            exists.setString(2, table);
            try (ResultSet count = exists.executeQuery()) {
                count.next();
                if (count.getLong(1) == 0) {
                    return 0;
                }
            }
            try (Statement statement = to.createStatement();
                    ResultSet count =
                            statement.executeQuery(
                                    "SELECT count(*) FROM " + ChaosLoad.SCHEMA + "." + table)) {
                count.next();
                return count.getLong(1);
            }
        }
    }
}
