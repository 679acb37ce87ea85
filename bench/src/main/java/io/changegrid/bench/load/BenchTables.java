package io.changegrid.bench.load;

import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.policy.partition.Partitioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The bench load's tables: {@link WorkloadTables} whose names are chosen so that splitting by table
 * ({@link Partitioner.ByTable}, a hash of {@code database.table}) gives every partition its share
 * for each partition count the run uses; the whitepaper assigned tables to relays by hand.
 */
public final class BenchTables {

    private final WorkloadTables tables;

    private BenchTables(WorkloadTables tables) {
        this.tables = tables;
    }

    /**
     * {@code count} tables in {@code database} whose names split evenly by table hash into each of
     * {@code partitionCounts} (as evenly as the counts allow: no partition gets more than its
     * rounded-up share).
     */
    public static BenchTables balanced(String database, int count, Set<Integer> partitionCounts) {
        List<String> chosen = new ArrayList<>();
        List<int[]> filled = new ArrayList<>();
        List<Integer> counts = new ArrayList<>(partitionCounts);
        for (int n : counts) {
            filled.add(new int[n]);
        }
        for (int candidate = 0; chosen.size() < count; candidate++) {
            String name = WorkloadTables.candidateName(candidate);
            if (candidate > 1000 * count) {
                chosen.add(name); // no balanced set found: take names as they come
                continue;
            }
            boolean fits = true;
            for (int i = 0; i < counts.size() && fits; i++) {
                int n = counts.get(i);
                int share = (count + n - 1) / n;
                fits = filled.get(i)[partition(database, name, n)] < share;
            }
            if (fits) {
                for (int i = 0; i < counts.size(); i++) {
                    filled.get(i)[partition(database, name, counts.get(i))]++;
                }
                chosen.add(name);
            }
        }
        return new BenchTables(WorkloadTables.of(database, chosen));
    }

    private static int partition(String database, String table, int partitions) {
        return new Partitioner.ByTable(partitions).partitionOfTable(database, table);
    }

    /** The tables, for the workload generator. */
    public WorkloadTables workload() {
        return tables;
    }

    /** Table names, in the order transactions take them round-robin. */
    public List<String> names() {
        return tables.names();
    }

    public String database() {
        return tables.database();
    }

    /** How many tables land in each of {@code partitions} when split by table. */
    public int[] tablesPerPartition(int partitions) {
        int[] counts = new int[partitions];
        for (String name : tables.names()) {
            counts[partition(tables.database(), name, partitions)]++;
        }
        return counts;
    }
}
