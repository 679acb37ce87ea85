package io.changegrid.fetchers.logminer.mining;

import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Makes sure the redo a window reaches is written out before it is mined: a window ends at most at
 * the SCN flushed. Oracle's {@code CURRENT_SCN} runs ahead of what LGWR has written to the online
 * log; LogMiner reads the log files, so a window up to an SCN whose redo is still in the log buffer
 * would silently lack those rows, and the next window starts after them. A committed update of a
 * table of the fetcher's own is the field's usual cure (Debezium's flush table): a commit returns
 * only when LGWR has written its redo, and redo is written in order, so everything generated before
 * the update (every SCN up to the one read before it) is in the log files then.
 *
 * <p>Plain SQL, the same text on Oracle and the stand-in: {@code LOG_MINING_FLUSH} in the mining
 * user's schema, one row ({@code CREATE TABLE LOG_MINING_FLUSH (LAST_SCN NUMBER(19)); INSERT INTO
 * LOG_MINING_FLUSH VALUES (0); COMMIT;}).
 */
public final class RedoFlush {

    static final String FLUSH = "UPDATE LOG_MINING_FLUSH SET LAST_SCN = ?";
    static final String CHECK = "SELECT COUNT(*) FROM LOG_MINING_FLUSH";
    static final String FIX =
            "CREATE TABLE LOG_MINING_FLUSH (LAST_SCN NUMBER(19)); INSERT INTO LOG_MINING_FLUSH VALUES (0);"
                    + " COMMIT; (in the mining user's schema)";

    private RedoFlush() {}

    /**
     * Writes the redo of every SCN up to {@code scn} (read before the call) to the log files.
     *
     * @return {@code scn}: the highest SCN a window may end at now
     */
    public static long flush(Connection connection, long scn) throws SQLException {
        int updated;
        try (var statement = connection.prepareStatement(FLUSH)) {
            statement.setLong(1, scn);
            updated = statement.executeUpdate();
        }
        if (!connection.getAutoCommit()) {
            connection.commit(); // the commit is what makes LGWR write
        }
        if (updated != 1) {
            throw new FetchFailedException(
                    "flush table must hold exactly one row: table=LOG_MINING_FLUSH, rows="
                            + updated
                            + "; fix: "
                            + FIX);
        }
        return scn;
    }

    /** What is wrong with the flush table, or null; for the start's source checks. */
    static String problem(Connection connection) {
        try (var statement = connection.prepareStatement(CHECK);
                var rows = statement.executeQuery()) {
            rows.next();
            long count = rows.getLong(1);
            return count == 1
                    ? null
                    : "flush table must hold exactly one row: table=LOG_MINING_FLUSH, rows="
                            + count
                            + "; fix: "
                            + FIX;
        } catch (SQLException e) {
            return "flush table not readable: table=LOG_MINING_FLUSH, reason="
                    + e.getMessage().strip()
                    + "; fix: "
                    + FIX;
        }
    }
}
