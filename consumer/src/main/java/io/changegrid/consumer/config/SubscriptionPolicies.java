package io.changegrid.consumer.config;

import io.changegrid.config.ConfigException;
import io.changegrid.policy.Policies;
import io.changegrid.policy.Policy;
import io.changegrid.policy.config.PolicyConfig;
import io.changegrid.policy.config.SubscriptionRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a consumer's {@code policies:} before it asks any relay: the syntax of every policy (the
 * relay checks tables and columns against what it serves, and answers a 400 naming the path), no
 * transforms ({@link SubscriptionRule}, which the relay checks too), not mixed with {@code
 * subscription.tables}, and, for a partition, partitioners splitting into {@code
 * subscription.partitions}. Stateless.
 */
final class SubscriptionPolicies {

    private SubscriptionPolicies() {}

    /**
     * @return every problem, {@code path: message}; empty when the policies can be sent
     */
    static List<String> check(List<?> tree, List<String> tables, int partitions) {
        if (tree.isEmpty()) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        if (!tables.isEmpty()) {
            problems.add(
                    "bad value: path=subscription.tables, value="
                            + tables
                            + ": policies select the tables; give one or the other");
        }
        Policies policies;
        try {
            policies = PolicyConfig.parse(tree);
        } catch (ConfigException e) {
            problems.addAll(e.problems());
            return problems;
        }
        problems.addAll(SubscriptionRule.problems(policies));
        for (Policy policy : policies.policies()) {
            if (partitions > 1
                    && (policy.partitioner() == null
                            || policy.partitioner().partitions() != partitions)) {
                problems.add(
                        policy.path()
                                + ".partition: subscription.partitions="
                                + partitions
                                + " needs every policy to split into as many partitions: value="
                                + (policy.partitioner() == null
                                        ? "none"
                                        : policy.partitioner().partitions()));
            }
        }
        return problems;
    }
}
