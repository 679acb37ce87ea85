package io.changegrid.appliers.park;

import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.batch.RowRefusedException;
import io.changegrid.appliers.checkpoint.DeadLetterTable;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.appliers.schema.TableCatalog;
import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.consumer.api.EventView;
import io.changegrid.events.Operation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The applier's side of parking: which tables are parked, parking one, recording a parked table's
 * changes ({@link ParkedChanges}) and serving the operator's resume requests ({@link TableResume}).
 * With parking off it only guards the start: tables parked by an earlier run refuse it.
 *
 * <p>Threading: the dispatcher thread; {@link #tables()} from any thread.
 */
public final class Parking {

    private static final Logger LOG = LoggerFactory.getLogger(Parking.class);

    private final boolean enabled;
    private final Dialect dialect;
    private final DeadLetterTable deadLetters;
    private final ParkedTables parked = new ParkedTables();
    private final ParkedChanges changes;
    private final TableResume resume;

    /**
     * @param enabled {@code apply.refusedRows=park}
     * @param router the applier's, to record each change in the lane it would be applied in
     */
    public Parking(
            boolean enabled,
            Dialect dialect,
            DeadLetterTable deadLetters,
            LaneRouter router,
            TableCatalog catalog) {
        this.enabled = enabled;
        this.dialect = dialect;
        this.deadLetters = deadLetters;
        this.changes = new ParkedChanges(deadLetters, parked, router);
        this.resume = new TableResume(deadLetters, parked, catalog);
    }

    /** Whether tables are parked rather than the applier stopped. */
    public boolean enabled() {
        return enabled;
    }

    /** The parked tables and the counters; safe from any thread. */
    public ParkedTables tables() {
        return parked;
    }

    /**
     * Creates the two tables and loads the parked tables; with parking off, refuses to start while
     * tables are parked (their recorded changes would be overtaken by newer ones applied directly).
     *
     * @param control an autocommit connection
     * @throws IllegalStateException naming the parked tables when parking is off
     */
    public void load(Connection control) throws SQLException {
        if (enabled) {
            deadLetters.create(control);
            parked.load(deadLetters.parked(control).keySet());
        } else if (deadLetters.exists(control) && !deadLetters.parked(control).isEmpty()) {
            throw new IllegalStateException(
                    "tables are parked but apply.refusedRows=stop: set apply.refusedRows=park and"
                            + " resume them first: tables="
                            + deadLetters.parked(control).keySet()
                            + ", parkedTable="
                            + deadLetters.parkedTableName());
        }
    }

    /** Whether {@code event} is a change of a parked table. */
    public boolean isParked(EventView event) {
        return !parked.isEmpty()
                && event.schema() != null
                && parked.contains(event.schema().qualifiedName());
    }

    /**
     * Records row change {@code event} of a parked table in the lanes' next commits.
     *
     * @throws IllegalStateException for a schema change of a parked table: its recorded changes
     *     have the old shape, so the table must be resumed first
     */
    public void record(EventView event, int index, TargetTable table, List<Lane> lanes) {
        if (event.operation() == Operation.SCHEMA_CHANGE) {
            throw new IllegalStateException(
                    "schema change of a parked table: resume the table first (set"
                            + " resume_requested in "
                            + deadLetters.parkedTableName()
                            + " and restart): table="
                            + event.schema().qualifiedName()
                            + ", scn="
                            + event.scn()
                            + ", ddl="
                            + event.ddl());
        }
        changes.record(event, index, table, lanes);
    }

    /**
     * Parks {@code table}: commits its parked row with {@code error} on the autocommit {@code
     * control} connection, then routes its changes to the dead-letter table.
     */
    public void park(Connection control, String table, String error) throws SQLException {
        deadLetters.park(control, table, error);
        parked.park(table);
        LOG.error(
                "table parked, its changes are recorded in the dead-letter table until resumed:"
                        + " table={}, deadLetterTable={}, parkedTable={}, error={}",
                table,
                deadLetters.deadLetterTableName(),
                deadLetters.parkedTableName(),
                error);
    }

    /**
     * Resumes the parked tables an operator asked to resume, through {@code lane} (idle). A
     * permanent error leaves the table parked, with the error recorded and the request cleared.
     *
     * @throws SQLException a transient error (the batch is retried, and the request with it)
     */
    public void resumeRequested(Connection control, Lane lane, long epoch) throws SQLException {
        if (parked.isEmpty()) {
            return;
        }
        for (DeadLetterTable.Parked table : deadLetters.parked(control).values()) {
            if (!table.resumeRequested()) {
                continue;
            }
            LOG.info("resuming parked table: table={}", table.table());
            try {
                resume.resume(control, lane, table.table(), epoch);
            } catch (SQLException | RowRefusedException e) {
                if (e instanceof SQLException sql && dialect.isTransient(sql)) {
                    throw sql;
                }
                deadLetters.park(control, table.table(), "resuming: " + e.getMessage());
                LOG.error(
                        "parked table not resumed, it stays parked: table={}, error={}",
                        table.table(),
                        e.getMessage());
            }
        }
    }
}
