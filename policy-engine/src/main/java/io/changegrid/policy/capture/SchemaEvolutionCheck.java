package io.changegrid.policy.capture;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.Policy;
import io.changegrid.policy.transform.TransformSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps protected columns protected when the source alters a table. Policies name columns, so a
 * column the policy masks, drops or excludes that is renamed at the source would otherwise reach
 * the buffer under its new name, unmasked. A schema change in which a protected column disappears
 * while new columns appear may be such a rename; the check refuses it, naming both, so the operator
 * updates the policy. A protected column that disappears with nothing new (a plain DROP COLUMN) is
 * harmless: there is nothing left to protect. Stateless.
 */
final class SchemaEvolutionCheck {

    private SchemaEvolutionCheck() {}

    /**
     * @throws PolicyViolationException if a protected column may have been renamed
     */
    static void check(Policy policy, TableSchema previous, TableSchema next) {
        List<String> appeared = new ArrayList<>();
        for (Column column : next.columns()) {
            if (previous.indexOf(column.name()) < 0) {
                appeared.add(column.name());
            }
        }
        if (appeared.isEmpty()) {
            return;
        }
        for (String name : protectedColumns(policy.transform())) {
            if (previous.indexOf(name) >= 0 && next.indexOf(name) < 0) {
                throw new PolicyViolationException(
                        "a column the policy protects disappeared while new columns appeared, which"
                                + " may be a rename that would publish it unprotected: policy="
                                + policy.path()
                                + ", table="
                                + next.qualifiedName()
                                + ", version="
                                + next.version()
                                + ", column="
                                + name
                                + ", newColumns="
                                + appeared
                                + "; name the new column in the policy and restart the relay");
            }
        }
    }

    /** Columns whose values must never be published as they are. */
    private static Set<String> protectedColumns(TransformSpec spec) {
        Set<String> names = new LinkedHashSet<>(spec.mask().keySet());
        names.addAll(spec.drop());
        names.addAll(spec.excludeColumns());
        return names;
    }
}
