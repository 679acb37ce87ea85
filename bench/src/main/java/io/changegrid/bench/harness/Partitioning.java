package io.changegrid.bench.harness;

import java.util.Map;

/** How relays or consumers split a stream between them. */
public enum Partitioning {
    /** Whole tables (the whitepaper's relays: separate tables handled by separate relays). */
    TABLE("byTable"),
    /** Rows by primary key hash. */
    KEY("byKeyHash");

    private final String partitioner;

    Partitioning(String partitioner) {
        this.partitioner = partitioner;
    }

    /** The policy's {@code partition:} entry splitting into {@code partitions}. */
    public Map<String, Object> partitionEntry(int partitions) {
        return Map.of(partitioner, Map.of("partitions", partitions));
    }

    /** "table" or "key", as on the command line and in result lines. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
