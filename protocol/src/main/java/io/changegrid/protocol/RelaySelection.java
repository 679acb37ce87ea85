package io.changegrid.protocol;

import java.util.List;

/**
 * What one of a relay's policies selects, as the relay registers it (docs/cluster.md): its tables,
 * whether it publishes only some rows ({@code where:}), whether it publishes them under another
 * name and, when the relay publishes one partition, how the policy splits rows into partitions. A
 * relay without policies registers {@link #EVERYTHING}.
 *
 * @param include its tables, {@code database.table} patterns with {@code *}
 * @param exclude the tables it leaves out
 * @param where whether it publishes only the rows a predicate selects
 * @param renames whether it publishes its tables under another database or table name
 * @param partitioner the canonical form of its partitioner ({@code Partitioner.canonicalForm()})
 *     when the relay publishes one partition; null when the relay publishes every partition, or
 *     when a relay too old to say splits the source
 */
public record RelaySelection(
        List<String> include,
        List<String> exclude,
        boolean where,
        boolean renames,
        String partitioner) {

    /** Every captured table, every row, unchanged. */
    public static final RelaySelection EVERYTHING =
            new RelaySelection(List.of("*.*"), List.of(), false, false, null);

    public RelaySelection {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
    }

    /** Whether this policy selects some table {@code wanted} names (so it governs it). */
    boolean touches(String wanted) {
        return include.stream().anyMatch(pattern -> TableGlob.overlaps(pattern, wanted))
                && exclude.stream().noneMatch(pattern -> TableGlob.covers(pattern, wanted));
    }

    /** Whether this policy publishes every row of every table {@code wanted} names, unrenamed. */
    boolean publishesAllOf(String wanted) {
        return !where
                && !renames
                && include.stream().anyMatch(pattern -> TableGlob.covers(pattern, wanted))
                && exclude.stream().noneMatch(pattern -> TableGlob.overlaps(pattern, wanted));
    }
}
