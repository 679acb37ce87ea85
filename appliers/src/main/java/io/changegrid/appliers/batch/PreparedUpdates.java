package io.changegrid.appliers.batch;

import io.changegrid.appliers.schema.TargetTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lane's in-place UPDATE statements, one per table and set of changed columns, at most {@value
 * #PER_TABLE} per table: a wide table updated in many different column combinations would otherwise
 * keep a statement (on PostgreSQL, a server-side one) for every combination ever seen. The least
 * recently used is closed. Not thread-safe: one lane's committing thread uses it.
 */
final class PreparedUpdates {

    private static final Logger LOG = LoggerFactory.getLogger(PreparedUpdates.class);
    static final int PER_TABLE = 64;

    private final Map<TargetTable, Map<BitSet, PreparedStatement>> byTable = new HashMap<>();

    /** The statement updating {@code changed} columns of {@code table}, prepared if need be. */
    PreparedStatement of(Connection connection, TargetTable table, BitSet changed)
            throws SQLException {
        Map<BitSet, PreparedStatement> prepared =
                byTable.computeIfAbsent(table, t -> new LeastRecentlyUsed());
        PreparedStatement update = prepared.get(changed);
        if (update == null) {
            update = connection.prepareStatement(table.updateSql(changed));
            prepared.put(changed, update);
        }
        return update;
    }

    private static final class LeastRecentlyUsed extends LinkedHashMap<BitSet, PreparedStatement> {
        private static final long serialVersionUID = 1L;

        LeastRecentlyUsed() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<BitSet, PreparedStatement> eldest) {
            if (size() <= PER_TABLE) {
                return false;
            }
            try {
                eldest.getValue().close();
            } catch (SQLException e) {
                // Closing only frees it early; closing the connection frees it as well.
                LOG.debug("closing an evicted update statement failed: {}", e.getMessage());
            }
            return true;
        }
    }
}
