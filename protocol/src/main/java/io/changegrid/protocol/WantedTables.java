package io.changegrid.protocol;

/**
 * Tables a consumer group subscribes to, as a relay is judged against them: which tables, and how
 * the group splits their rows into its partitions.
 *
 * @param pattern a {@code database.table} pattern with {@code *}; {@code *.*} for every table
 * @param partitioner the canonical form ({@code Partitioner.canonicalForm()}, as relays register
 *     theirs) of what decides which partition of the group a row of these tables is in: {@code
 *     byKeyHash(partitions=N)} for {@code subscription.tables} or every table, the partitioner of
 *     the subscription's policy for a policy subscription; null when the group has one partition
 */
public record WantedTables(String pattern, String partitioner) {

    /** The tables of a group with one partition, which wants every row of them. */
    public static WantedTables whole(String pattern) {
        return new WantedTables(pattern, null);
    }
}
