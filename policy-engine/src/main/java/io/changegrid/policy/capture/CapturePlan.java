package io.changegrid.policy.capture;

import io.changegrid.config.ConfigException;
import io.changegrid.events.frame.KeyHash;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.BoundPolicy;
import io.changegrid.policy.Policies;
import io.changegrid.policy.Policy;
import io.changegrid.policy.partition.Partitioner;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What a fetcher publishes: every table unchanged ({@link #everything()}), or what the relay's
 * policies select, transformed, and — when relays split a source — only this relay's partition.
 * Immutable and thread-safe.
 *
 * <p>Relays splitting one source each publish one partition of every policy's partitioner, so every
 * policy must be partitioned, all into the same number of partitions: a policy without a
 * partitioner would have its rows published by every relay, and consumers would receive them once
 * per relay.
 */
public final class CapturePlan {

    /** The partition value meaning "all of them". */
    public static final int ALL_PARTITIONS = -1;

    private final Policies policies;
    private final int partition;

    private CapturePlan(Policies policies, int partition) {
        this.policies = policies;
        this.partition = partition;
    }

    /** Every table of the capture filter, unchanged. */
    public static CapturePlan everything() {
        return new CapturePlan(null, ALL_PARTITIONS);
    }

    /**
     * The policies' plan for one relay.
     *
     * @param partition the partition this relay publishes, or {@link #ALL_PARTITIONS}
     * @param partitionKey the setting that gave {@code partition}, for messages
     * @throws ConfigException listing every policy that cannot be split that way
     */
    public static CapturePlan of(Policies policies, int partition, String partitionKey) {
        if (partition != ALL_PARTITIONS) {
            List<String> problems = new ArrayList<>();
            Integer count = null;
            for (Policy policy : policies.policies()) {
                Partitioner partitioner = policy.partitioner();
                String at = policy.path() + ".partition";
                if (partitioner == null) {
                    problems.add(
                            at
                                    + ": missing: "
                                    + partitionKey
                                    + "="
                                    + partition
                                    + " takes one partition of every policy, so every policy needs a"
                                    + " partitioner; without one its rows would be in every partition");
                    continue;
                }
                if (count == null) {
                    count = partitioner.partitions();
                } else if (partitioner.partitions() != count) {
                    problems.add(
                            at
                                    + ": every policy must split into the same number of partitions"
                                    + " when one partition is taken: value="
                                    + partitioner.partitions()
                                    + ", first="
                                    + count);
                }
                if (partition >= partitioner.partitions()) {
                    problems.add(
                            at
                                    + ": "
                                    + partitionKey
                                    + " out of range: value="
                                    + partition
                                    + ", partitions="
                                    + partitioner.partitions());
                }
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
        }
        return new CapturePlan(policies, partition);
    }

    /** The relay's policies, or empty when it publishes every table unchanged. */
    public Optional<Policies> policies() {
        return Optional.ofNullable(policies);
    }

    /** Whether this plan publishes every table unchanged. */
    public boolean isEverything() {
        return policies == null;
    }

    /**
     * A short text that changes when the policies could change the schemas published (their
     * selection or transforms), and is the same for the same policies in every process: {@code
     * none} without policies. Consumers cache a relay's schemas by table id and version, which a
     * relay restarted with other transforms reuses for other columns; this tells them.
     */
    public String schemaFingerprint() {
        if (policies == null) {
            return "none";
        }
        StringBuilder text = new StringBuilder();
        for (Policy policy : policies.policies()) {
            text.append(policy.include())
                    .append(policy.exclude())
                    .append(policy.transform())
                    .append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        return Integer.toHexString(KeyHash.murmur3(ByteBuffer.wrap(bytes), 0, bytes.length));
    }

    /** The partition published, or {@link #ALL_PARTITIONS}. */
    public int partition() {
        return partition;
    }

    /**
     * The number of partitions the source is split into when this plan publishes one of them (the
     * policies' partitioners all split into this many); 0 when it publishes all.
     */
    public int partitions() {
        if (partition == ALL_PARTITIONS) {
            return 0;
        }
        // of() checked that every policy has a partitioner, all of one size.
        return policies.policies().get(0).partitioner().partitions();
    }

    /**
     * Whether rows of the table may be published: some policy selects it. Tables no policy selects
     * need not be decoded at all.
     */
    public boolean selects(String database, String table) {
        return policies == null || policies.governing(database, table) != null;
    }

    /**
     * Checks the policies against the source's tables at start: see {@link
     * Policies#validate(Collection)}.
     *
     * @return every problem, {@code path: message}
     */
    public List<String> validate(Collection<TableSchema> tables) {
        return policies == null ? List.of() : policies.validate(tables);
    }

    /**
     * The route of a table schema version's rows, or {@code null} if this relay publishes none of
     * them (no policy selects the table, or its table partition is another relay's).
     *
     * @throws PolicyViolationException if the governing policy's predicate or partitioner names a
     *     column the table no longer has
     */
    public TableRoute route(TableSchema source) {
        if (policies == null) {
            return TableRoute.passThrough(source);
        }
        Policy policy = policies.governing(source.database(), source.table());
        if (policy == null) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        BoundPolicy bound = policy.bind(source, problems, false);
        if (bound == null) {
            throw new PolicyViolationException(
                    "the table no longer fits its policy: table="
                            + source.qualifiedName()
                            + ", version="
                            + source.version()
                            + ": "
                            + String.join("; ", problems));
        }
        Partitioner partitioner = policy.partitioner();
        if (partition == ALL_PARTITIONS || partitioner == null) {
            return TableRoute.of(bound, null, 0);
        }
        if (partitioner instanceof Partitioner.ByTable) {
            TableSchema output = bound.transformer().outputSchema();
            int tablePartition =
                    ((Partitioner.ByTable) partitioner)
                            .partitionOfTable(output.database(), output.table());
            return tablePartition == partition ? TableRoute.of(bound, null, 0) : null;
        }
        return TableRoute.of(bound, partitioner, partition);
    }

    /**
     * The route after the source changed a table from {@code previous} to {@code next}: as {@link
     * #route}, and a protected column must not have been renamed.
     *
     * @throws PolicyViolationException naming the policy, table and column
     */
    public TableRoute routeChanged(TableSchema previous, TableSchema next) {
        TableRoute route = route(next);
        if (route != null && previous != null && policies != null) {
            SchemaEvolutionCheck.check(
                    policies.governing(next.database(), next.table()), previous, next);
        }
        return route;
    }
}
