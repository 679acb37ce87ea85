package io.changegrid.policy;

import io.changegrid.events.ChangeEvent;
import io.changegrid.policy.select.RowFilter;
import io.changegrid.policy.transform.RowTransformer;

/**
 * A policy compiled for one table schema version: the row filter and the transformer, with column
 * indexes resolved. Immutable and thread-safe.
 *
 * @param policy the policy it was compiled from
 * @param filter the compiled {@code where:}
 * @param transformer the bound transform, whose output schema describes the rows it produces
 */
public record BoundPolicy(Policy policy, RowFilter filter, RowTransformer transformer) {

    /**
     * The transformed change, or {@code null} if the policy does not select the row. The event must
     * be a row change of the schema this policy was bound to.
     */
    public ChangeEvent apply(ChangeEvent event) {
        if (event.schema() != transformer.sourceSchema()
                && !event.schema().equals(transformer.sourceSchema())) {
            throw new IllegalArgumentException(
                    "event schema differs from bound schema: policy="
                            + policy.name()
                            + ", table="
                            + event.schema().qualifiedName()
                            + ", version="
                            + event.schema().version());
        }
        return filter.test(event) ? transformer.apply(event) : null;
    }
}
