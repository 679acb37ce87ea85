package io.changegrid.appliers.batch;

/**
 * An error raised by writing one table's rows, naming that table: what the applier parks with
 * {@code apply.refusedRows=park} when the error is permanent.
 */
public interface RefusedTable {

    /** The source table whose change the target refused, {@code database.table}. */
    String sourceTable();

    /** The first error in {@code error}'s cause chain that names its table, or {@code null}. */
    static RefusedTable in(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof RefusedTable refused) {
                return refused;
            }
        }
        return null;
    }
}
