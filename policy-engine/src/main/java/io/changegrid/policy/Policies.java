package io.changegrid.policy;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * All compiled policies of a configuration, in definition order. Immutable and thread-safe.
 *
 * <p>A table is governed by the <em>first</em> policy that selects it, as firewall rules are: put
 * the specific policy (mask one table's column) before the general one (every table of the schema).
 * A table no policy selects is not replicated.
 *
 * @param policies the policies
 */
public record Policies(List<Policy> policies) {

    public Policies {
        policies = List.copyOf(policies);
    }

    /** The policy governing the table: the first that selects it, or {@code null}. */
    public Policy governing(String database, String table) {
        for (Policy policy : policies) {
            if (policy.selects(database, table)) {
                return policy;
            }
        }
        return null;
    }

    /** The policies selecting the table, in definition order. */
    public List<Policy> selecting(String database, String table) {
        List<Policy> selecting = new ArrayList<>();
        for (Policy policy : policies) {
            if (policy.selects(database, table)) {
                selecting.add(policy);
            }
        }
        return selecting;
    }

    /**
     * Checks the policies against known tables: a policy that governs no table (it selects none, or
     * only tables an earlier policy governs), or names a column a governed table lacks, or whose
     * {@code where:} does not fit a governed table, is a problem.
     *
     * @return every problem, {@code path: message}; empty when all fit
     */
    public List<String> validate(Collection<TableSchema> tables) {
        List<String> problems = new ArrayList<>();
        for (Policy policy : policies) {
            boolean selectsAny = false;
            Policy shadowedBy = null;
            for (TableSchema table : tables) {
                if (!policy.selects(table.database(), table.table())) {
                    continue;
                }
                Policy governing = governing(table.database(), table.table());
                if (governing == policy) {
                    selectsAny = true;
                    policy.bind(table, problems);
                } else if (shadowedBy == null) {
                    shadowedBy = governing;
                }
            }
            if (!selectsAny) {
                problems.add(
                        policy.path()
                                + ".include: "
                                + (shadowedBy == null
                                        ? "selects no known table: value="
                                        : "selects only tables an earlier policy governs: earlier="
                                                + shadowedBy.path()
                                                + ", value=")
                                + policy.include());
            }
        }
        return problems;
    }

    /** {@link #validate(Collection)} against the latest version of every table in the registry. */
    public List<String> validate(SchemaRegistry registry) {
        return validate(registry.latestVersions());
    }
}
