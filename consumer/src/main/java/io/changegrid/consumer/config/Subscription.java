package io.changegrid.consumer.config;

import java.util.List;

/**
 * Which part of a source's stream a consumer receives: some tables, and partition {@code p} of
 * {@code n} by key hash. The relay applies it; transactions with nothing wanted are left out, and
 * the consumer's checkpoint still moves past them.
 *
 * <pre>{@code
 * Subscription.all()
 * Subscription.tables("shop.*", "crm.users").partition(2, 4)
 * }</pre>
 *
 * @param tables {@code database.table} patterns with {@code *}; empty for every table the relay
 *     captures
 * @param partition the partition wanted, in {@code [0, partitions)}
 * @param partitions the number of partitions; 1 for no partitioning
 */
public record Subscription(List<String> tables, int partition, int partitions) {

    public Subscription {
        tables = List.copyOf(tables);
    }

    /** Every table, unpartitioned. */
    public static Subscription all() {
        return new Subscription(List.of(), 0, 1);
    }

    /** The given tables, unpartitioned. */
    public static Subscription tables(String... patterns) {
        return new Subscription(List.of(patterns), 0, 1);
    }

    /** This subscription restricted to partition {@code p} of {@code n}. */
    public Subscription partition(int p, int n) {
        return new Subscription(tables, p, n);
    }
}
