package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.schema.TableCatalog;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Empties a target table where a snapshot's copy of its source table begins (docs/appliers.md,
 * "Seeding a target from a snapshot"), so that at the snapshot's end the target holds exactly the
 * source's rows, even those the source deleted while the consumer was off the relays' buffer.
 *
 * <p>Why a {@code DELETE} in the lane's checkpointed transaction, and not {@code TRUNCATE} or a
 * generation mark: the deletion commits with lane 0's checkpoint row, conditional on the ownership
 * epoch, so an owner fenced by a newer one cannot empty a table its successor is already seeding (a
 * {@code TRUNCATE} commits on its own in MariaDB and locks readers out in PostgreSQL). Emptying is
 * idempotent at the table's start: done again after a crash before the table's first chunk was
 * checkpointed, it deletes only rows that the chunks about to follow copy again. A generation mark
 * (a column in every target table, deleting the unmarked rows at the table's end) would keep the
 * old rows readable during the copy, but needs a column of ours in the operator's tables and a
 * second pass over each table; a target read during a re-seed sees each table fill up instead.
 *
 * <p>Threading: the applier's dispatcher thread.
 */
final class TableReseed {

    private static final Logger LOG = LoggerFactory.getLogger(TableReseed.class);

    private final TableCatalog catalog;

    TableReseed(TableCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * Adds the deletion of every row of the source table's target table to {@code lane}'s next
     * commit.
     *
     * @param control an autocommit connection, to see whether the target table exists
     * @return false if there is no target table (nothing to empty; the first chunk creates it)
     */
    boolean empty(Connection control, Lane lane, String database, String table)
            throws SQLException {
        if (!catalog.exists(control, database, table)) {
            return false;
        }
        String target = catalog.nameOf(database, table);
        lane.alsoCommit(
                connection -> {
                    try (Statement statement = connection.createStatement()) {
                        int deleted = statement.executeUpdate("DELETE FROM " + target);
                        LOG.info(
                                "snapshot of a table begins, target table emptied: source={}.{},"
                                        + " target={}, rowsDeleted={}",
                                database,
                                table,
                                target,
                                deleted);
                    }
                });
        return true;
    }
}
