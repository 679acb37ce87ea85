package io.changegrid.policy;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * All compiled policies of a configuration, in definition order. Immutable and thread-safe.
 *
 * @param policies the policies
 */
public record Policies(List<Policy> policies) {

    public Policies {
        policies = List.copyOf(policies);
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
     * Checks the policies against known tables: a policy that selects no table, or names a column a
     * selected table lacks, or whose {@code where:} does not fit a selected table, is a problem.
     *
     * @return every problem, {@code path: message}; empty when all fit
     */
    public List<String> validate(Collection<TableSchema> tables) {
        List<String> problems = new ArrayList<>();
        for (Policy policy : policies) {
            boolean any = false;
            for (TableSchema table : tables) {
                if (policy.selects(table.database(), table.table())) {
                    any = true;
                    policy.bind(table, problems);
                }
            }
            if (!any) {
                problems.add(
                        policy.path()
                                + ".include: selects no known table: value="
                                + policy.include());
            }
        }
        return problems;
    }

    /** {@link #validate(Collection)} against the latest version of every table in the registry. */
    public List<String> validate(SchemaRegistry registry) {
        Map<Integer, TableSchema> latest = new HashMap<>();
        for (TableSchema schema : registry.allVersions()) {
            latest.merge(schema.tableId(), schema, (a, b) -> a.version() >= b.version() ? a : b);
        }
        return validate(latest.values());
    }
}
