package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.schema.TableCatalog;
import io.changegrid.consumer.api.EventView;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a source schema change to the target once every lane has committed: the target table is
 * altered ({@link TableCatalog}) and every lane's checkpoint moved past the change, in one
 * transaction on the control connection where the target has transactional DDL (else the DDL
 * commits by itself and the checkpoints follow it).
 *
 * <p>Threading: the consumer's dispatcher thread only, like the {@link JdbcApplier} that owns it.
 */
final class SchemaChangeCommit {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaChangeCommit.class);

    private final Dialect dialect;
    private final TableCatalog catalog;
    private final CheckpointTable checkpoints;
    private final LongSupplier epoch;

    SchemaChangeCommit(
            Dialect dialect,
            TableCatalog catalog,
            CheckpointTable checkpoints,
            LongSupplier epoch) {
        this.dialect = dialect;
        this.catalog = catalog;
        this.checkpoints = checkpoints;
        this.epoch = epoch;
    }

    /**
     * Alters the target table of {@code event} and moves every lane past it; the lanes must hold
     * nothing (a row of the old shape). Leaves {@code control} in auto-commit.
     *
     * @throws SQLException if the target refused the change (rolled back where it can be)
     */
    void apply(Connection control, List<Lane> lanes, EventView event) throws SQLException {
        long epoch = this.epoch.getAsLong();
        boolean transactional = dialect.transactionalDdl();
        control.setAutoCommit(!transactional);
        try {
            List<String> ddl = catalog.applyChange(control, event.schema(), event.ddl());
            checkpoints.advanceAll(control, lanes.size(), event.scn(), epoch);
            if (transactional) {
                control.commit();
            }
            LOG.info(
                    "schema change applied: scn={}, table={}, sourceDdl={}, targetDdl={}",
                    event.scn(),
                    event.schema().qualifiedName(),
                    event.ddl(),
                    ddl);
        } catch (SQLException | RuntimeException e) {
            if (transactional) {
                control.rollback();
            }
            throw e;
        } finally {
            control.setAutoCommit(true);
        }
        for (Lane lane : lanes) {
            lane.checkpointed(event.scn());
        }
    }
}
