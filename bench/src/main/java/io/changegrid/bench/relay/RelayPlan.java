package io.changegrid.bench.relay;

import io.changegrid.bench.harness.Partitioning;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a run's relays are set up.
 *
 * @param relays how many relays split the source (each reads the whole binlog, publishes its part)
 * @param partitioning how they split it, when there are several
 * @param policies the user's {@code policies:} list, or empty for pass-through
 * @param heap each relay's heap, e.g. 512m
 * @param bufferBytes each relay's event buffer capacity
 * @param storage direct or mapped buffer segments
 * @param javaOptions more JVM options for every relay, e.g. a JFR recording
 * @param tls HTTPS and tokens ({@code --tls}), or {@link BenchTls#NONE}
 * @param settings relay settings for every relay, {@code key=value}, as its {@code --set} takes
 *     them
 */
public record RelayPlan(
        int relays,
        Partitioning partitioning,
        List<?> policies,
        String heap,
        long bufferBytes,
        String storage,
        List<String> javaOptions,
        BenchTls tls,
        List<String> settings) {

    public RelayPlan {
        tls = tls == null ? BenchTls.NONE : tls;
        policies = List.copyOf(policies);
        javaOptions = List.copyOf(javaOptions);
        settings = List.copyOf(settings);
    }

    /** A plan with no extra relay settings. */
    public RelayPlan(
            int relays,
            Partitioning partitioning,
            List<?> policies,
            String heap,
            long bufferBytes,
            String storage,
            List<String> javaOptions) {
        this(
                relays,
                partitioning,
                policies,
                heap,
                bufferBytes,
                storage,
                javaOptions,
                BenchTls.NONE,
                List.of());
    }

    /** The same plan with another number of relays. */
    public RelayPlan withRelays(int count) {
        return new RelayPlan(
                count,
                partitioning,
                policies,
                heap,
                bufferBytes,
                storage,
                javaOptions,
                tls,
                settings);
    }

    /** The same plan with other policies. */
    public RelayPlan withPolicies(List<?> list) {
        return new RelayPlan(
                relays, partitioning, list, heap, bufferBytes, storage, javaOptions, tls, settings);
    }

    /**
     * The relays' {@code policies:}: the user's, each given this plan's partitioner when several
     * relays split the source and it has none; without user policies, one policy splitting every
     * table of {@code database}; empty for a single pass-through relay.
     */
    public List<Object> relayPolicies(String database) {
        List<Object> list = new ArrayList<>();
        if (policies.isEmpty()) {
            if (relays > 1) {
                list.add(
                        Map.of(
                                "name", "bench-split",
                                "include", List.of(database + ".*"),
                                "partition", partitioning.partitionEntry(relays)));
            }
            return list;
        }
        for (Object policy : policies) {
            if (relays > 1
                    && policy instanceof Map
                    && !((Map<?, ?>) policy).containsKey("partition")) {
                Map<Object, Object> split = new LinkedHashMap<>((Map<?, ?>) policy);
                split.put("partition", partitioning.partitionEntry(relays));
                list.add(split);
            } else {
                list.add(policy);
            }
        }
        return list;
    }
}
