package io.changegrid.deploy.local;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts the rows of each demo table at the source and in the target and prints them side by side:
 * the quickstart's check that the applier's target ended equal in size to the source.
 */
final class RowCountCheck {

    /** One table's counts; {@code target} is -1 when the target has no such table. */
    record Counts(String table, long source, long target) {
        boolean agree() {
            return source == target;
        }
    }

    private RowCountCheck() {}

    /** Counts {@code schema.table} for each table on both sides. */
    static List<Counts> count(
            Connection source, boolean sourceIsPostgres, Connection target, List<String> tables)
            throws SQLException {
        List<Counts> counts = new ArrayList<>();
        for (String table : tables) {
            String[] parts = table.split("\\.", 2);
            long sourceRows =
                    count(
                            source,
                            sourceIsPostgres
                                    ? '"' + parts[0] + "\".\"" + parts[1] + '"'
                                    : "`" + parts[0] + "`.`" + parts[1] + "`");
            long targetRows;
            try {
                targetRows = count(target, '"' + parts[0] + "\".\"" + parts[1] + '"');
            } catch (SQLException e) {
                targetRows = -1; // no row of it was applied, so the table was never made
                if (!target.getAutoCommit()) {
                    target.rollback();
                }
            }
            counts.add(new Counts(table, sourceRows, targetRows));
        }
        return counts;
    }

    /** Prints the table of counts and one line saying whether they all agree; returns that. */
    static boolean print(PrintStream out, List<Counts> counts) {
        out.printf("  %-20s %12s %12s%n", "table", "source rows", "target rows");
        boolean agree = true;
        for (Counts each : counts) {
            out.printf(
                    "  %-20s %,12d %12s  %s%n",
                    each.table(),
                    each.source(),
                    each.target() < 0 ? "missing" : String.format("%,d", each.target()),
                    each.agree() ? "ok" : "DIFFERENT");
            agree &= each.agree();
        }
        out.println(
                agree
                        ? "row-count check: source and target agree on every table"
                        : "row-count check FAILED: source and target differ (see DIFFERENT above)");
        return agree;
    }

    private static long count(Connection connection, String table) throws SQLException {
        try (Statement statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM " + table)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
