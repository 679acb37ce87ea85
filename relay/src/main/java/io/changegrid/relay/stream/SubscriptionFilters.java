package io.changegrid.relay.stream;

import static io.changegrid.protocol.StreamParameters.FILTER;
import static io.changegrid.protocol.StreamParameters.FILTER_PARTITION;
import static io.changegrid.protocol.StreamParameters.FILTER_POLICIES;
import static io.changegrid.protocol.StreamParameters.TABLES;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.policy.Policies;
import io.changegrid.policy.Policy;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.config.PolicyConfig;
import io.changegrid.policy.config.SubscriptionRule;
import io.changegrid.policy.partition.Partitioner;
import io.changegrid.policy.select.TablePattern;
import io.changegrid.policy.transform.TransformSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a {@code /v1/stream} request's subscription into the {@link CapturePlan} its frames are
 * judged by: the {@code filter} parameter — {@code {"policies": [...], "partition": p}}, the
 * policies written as in a relay's YAML (docs/policies.md) but only selecting and partitioning — or
 * the older {@code tables}, {@code p} and {@code n} parameters.
 *
 * <p>A filter is checked against the tables the relay serves, as a relay checks its own policies at
 * start: a policy naming a table or column the stream does not have is a 400 naming its path.
 * Consumers long-poll with the same filter over and over, so checked filters are remembered by
 * their text (a bounded number of them).
 *
 * <p>Thread-safe.
 */
final class SubscriptionFilters {

    private static final int MAX_REMEMBERED = 256;

    private final SchemaRegistry registry;
    private final Map<String, CapturePlan> checked = new ConcurrentHashMap<>();

    SubscriptionFilters(SchemaRegistry registry) {
        this.registry = registry;
    }

    /**
     * The plan of a {@code filter} parameter.
     *
     * @throws BadRequestException naming every problem with its path
     */
    CapturePlan filter(String text) {
        CapturePlan plan = checked.get(text);
        if (plan != null) {
            return plan;
        }
        plan = parse(text);
        List<String> problems = plan.validate(registry.latestVersions());
        if (!problems.isEmpty()) {
            throw new BadRequestException(FILTER, text, String.join("; ", problems));
        }
        if (checked.size() >= MAX_REMEMBERED) {
            checked.clear(); // many distinct filters: recheck rather than grow without bound
        }
        checked.put(text, plan);
        return plan;
    }

    /**
     * The plan of the older parameters: the tables (every table when null) and partition {@code p}
     * of {@code n} by key hash. Not checked against the tables served, as before filters.
     */
    static CapturePlan tables(List<String> patterns, int partition, int partitions) {
        List<TablePattern> include = new ArrayList<>();
        for (String pattern : patterns == null ? List.of("*.*") : patterns) {
            try {
                include.add(TablePattern.parse(pattern.trim()));
            } catch (IllegalArgumentException e) {
                throw new BadRequestException(TABLES, String.join(",", patterns), e.getMessage());
            }
        }
        Policy policy =
                new Policy(
                        "tables",
                        "tables",
                        include,
                        List.of(),
                        null,
                        TransformSpec.IDENTITY,
                        partitions == 1 ? null : new Partitioner.ByKeyHash(partitions),
                        null,
                        List.of());
        return CapturePlan.of(
                new Policies(List.of(policy)),
                partitions == 1 ? CapturePlan.ALL_PARTITIONS : partition,
                "p");
    }

    private static CapturePlan parse(String text) {
        Map<String, Object> tree;
        try {
            tree = YamlConfigFile.parse(text, FILTER); // JSON is YAML
        } catch (ConfigException e) {
            throw new BadRequestException(FILTER, text, String.join("; ", e.problems()));
        }
        for (String key : tree.keySet()) {
            if (!Set.of(FILTER_POLICIES, FILTER_PARTITION).contains(key)) {
                throw new BadRequestException(
                        FILTER, text, "unknown key: " + key + "; known are policies, partition");
            }
        }
        Object partitionValue = tree.getOrDefault(FILTER_PARTITION, CapturePlan.ALL_PARTITIONS);
        if (!(partitionValue instanceof Integer) || (Integer) partitionValue < -1) {
            throw new BadRequestException(
                    FILTER, text, "partition: expected an integer >= -1: value=" + partitionValue);
        }
        try {
            Policies policies = PolicyConfig.parse(tree);
            List<String> problems = SubscriptionRule.problems(policies);
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
            return CapturePlan.of(policies, (Integer) partitionValue, FILTER_PARTITION);
        } catch (ConfigException e) {
            throw new BadRequestException(FILTER, text, String.join("; ", e.problems()));
        }
    }
}
