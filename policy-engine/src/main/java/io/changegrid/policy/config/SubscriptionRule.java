package io.changegrid.policy.config;

import io.changegrid.policy.Policies;
import io.changegrid.policy.Policy;
import io.changegrid.policy.transform.TransformSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What policies may do in a consumer's subscription, the one rule a consumer checks before it asks
 * a relay and the relay checks again when it is asked: a subscription selects (tables, a row
 * predicate) and partitions; transforming is the relay's job. Stateless.
 */
public final class SubscriptionRule {

    private SubscriptionRule() {}

    /**
     * @return a problem for every policy that transforms ({@code <path>.transform: ...}); empty
     *     when the policies may subscribe
     */
    public static List<String> problems(Policies policies) {
        List<String> problems = new ArrayList<>();
        for (Policy policy : policies.policies()) {
            if (!policy.transform().equals(TransformSpec.IDENTITY)) {
                problems.add(
                        policy.path()
                                + ".transform: a subscription selects and partitions only;"
                                + " transforms and column lists belong in the relay's policies");
            }
        }
        return problems;
    }
}
