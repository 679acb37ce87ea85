package io.changegrid.gridkit.load;

/**
 * What the load wrote and how fast.
 *
 * @param inserts row inserts
 * @param updates row updates
 * @param deletes row deletes
 * @param transactions source transactions
 * @param seconds wall time from the first statement to the last commit
 * @param generatorCpuSeconds CPU time of the generator thread alone
 */
public record LoadResult(
        long inserts,
        long updates,
        long deletes,
        long transactions,
        double seconds,
        double generatorCpuSeconds) {

    /** Row changes written: the events the binlog holds. */
    public long events() {
        return inserts + updates + deletes;
    }

    /** Row changes per second the database took. */
    public double eventsPerSecond() {
        return events() / seconds;
    }

    /** Row changes per second the generator could make on one core: its own ceiling. */
    public double generatorEventsPerSecond() {
        return events() / Math.max(1e-9, generatorCpuSeconds);
    }
}
