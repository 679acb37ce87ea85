package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.RefusedTable;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.park.Parking;
import io.changegrid.consumer.api.CallbackResult;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the {@link JdbcApplier} answers a target error: RETRY for errors that may pass, and for a
 * permanent error naming its table when such tables are parked (after parking it); FAIL, by
 * throwing so the cause is kept, for the others. After a RETRY the applier reconnects and re-reads
 * its lanes.
 *
 * <p>Not thread-safe: the dispatcher thread's.
 */
final class TargetErrors {

    private static final Logger LOG = LoggerFactory.getLogger(TargetErrors.class);

    private final Dialect dialect;
    private final Parking parking;

    TargetErrors(Dialect dialect, Parking parking) {
        this.dialect = dialect;
        this.parking = parking;
    }

    /**
     * The result for {@code e}, met doing {@code what}; parks a refused table on {@code control}.
     *
     * @throws RuntimeException for an error that is neither transient nor parked
     */
    CallbackResult failed(Connection control, String what, Exception e) {
        if (e instanceof SQLException sql && dialect.isTransient(sql)) {
            LOG.warn("target error, batch will be retried: {}, error={}", what, e.toString());
            return CallbackResult.RETRY;
        }
        RefusedTable refused = parking.enabled() ? RefusedTable.in(e) : null;
        if (refused != null) {
            return park(control, refused.sourceTable(), what, e);
        }
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        }
        throw new IllegalStateException(
                "target write failed: " + what + ", target=" + dialect.name() + ", error=" + e, e);
    }

    /**
     * Parks {@code table} (committed in the target before anything else) and has the batch retried:
     * every lane rolls back, and the redelivered changes of the table are recorded, not applied.
     */
    private CallbackResult park(Connection control, String table, String what, Exception e) {
        String error = what + ": " + e.getMessage();
        try {
            parking.park(control, table, error);
        } catch (SQLException parkingFailed) {
            parkingFailed.addSuppressed(e);
            return failed(control, "parking table=" + table, parkingFailed);
        }
        return CallbackResult.RETRY;
    }
}
