package io.changegrid.policy;

import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.conflict.ConflictStrategy;
import io.changegrid.policy.partition.Partitioner;
import io.changegrid.policy.select.Predicate;
import io.changegrid.policy.select.RowFilter;
import io.changegrid.policy.select.TablePattern;
import io.changegrid.policy.transform.RowTransformer;
import io.changegrid.policy.transform.TransformSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One parsed policy: which tables and rows it selects, how it transforms them, how its stream is
 * partitioned and how conflicts are settled. Immutable and thread-safe; {@link #bind} compiles it
 * for one table schema version.
 *
 * @param path where the policy was defined, e.g. {@code policies[2]}, for messages
 * @param name the policy's name
 * @param include tables selected; empty selects none
 * @param exclude tables removed from the selection
 * @param where the row predicate, or {@code null} to select every row
 * @param transform what is done to selected rows
 * @param partitioner how the stream is split, or {@code null} for one partition
 * @param conflict the conflict strategy, or {@code null} for the applier's default
 * @param sourcePriority source ids highest first, for {@link ConflictStrategy#SOURCE_PRIORITY}
 */
public record Policy(
        String path,
        String name,
        List<TablePattern> include,
        List<TablePattern> exclude,
        Predicate where,
        TransformSpec transform,
        Partitioner partitioner,
        ConflictStrategy conflict,
        List<Integer> sourcePriority) {

    public Policy {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
        sourcePriority = List.copyOf(sourcePriority);
    }

    /** Whether the policy selects the table. */
    public boolean selects(String database, String table) {
        return include.stream().anyMatch(p -> p.matches(database, table))
                && exclude.stream().noneMatch(p -> p.matches(database, table));
    }

    /**
     * Compiles the policy for one schema version.
     *
     * @throws io.changegrid.config.ConfigException listing every problem, each naming its path
     */
    public BoundPolicy bind(TableSchema schema) {
        List<String> problems = new ArrayList<>();
        BoundPolicy bound = bind(schema, problems);
        if (!problems.isEmpty()) {
            throw new io.changegrid.config.ConfigException(problems);
        }
        return bound;
    }

    /** Compiles the policy strictly, adding {@code path: message} problems; {@code null} if any. */
    public BoundPolicy bind(TableSchema schema, List<String> problems) {
        return bind(schema, problems, true);
    }

    /**
     * Compiles the policy, adding {@code path: message} problems; {@code null} if any. The row
     * predicate reads source columns; the partitioner reads the transformed row, so its column is
     * an output column.
     *
     * @param strict whether transform columns the schema lacks are problems (see {@link
     *     RowTransformer#bind(TransformSpec, TableSchema, java.util.function.Consumer, boolean)});
     *     the predicate's and partitioner's columns must always exist
     */
    public BoundPolicy bind(TableSchema schema, List<String> problems, boolean strict) {
        int before = problems.size();
        RowFilter filter =
                where == null
                        ? RowFilter.ALL
                        : RowFilter.compile(
                                where, schema, m -> problems.add(path + ".where: " + m));
        RowTransformer transformer =
                RowTransformer.bind(transform, schema, m -> problems.add(path + ": " + m), strict);
        String partitionColumn = partitionColumn();
        // Without a bound transformer (its problems are reported), check the source's columns.
        TableSchema partitioned = transformer == null ? schema : transformer.outputSchema();
        if (partitionColumn != null && partitioned.indexOf(partitionColumn) < 0) {
            problems.add(
                    path
                            + ".partition: unknown column: table="
                            + partitioned.qualifiedName()
                            + ", value="
                            + partitionColumn);
        }
        return problems.size() > before ? null : new BoundPolicy(this, filter, transformer);
    }

    private String partitionColumn() {
        if (partitioner instanceof Partitioner.ByColumn) {
            return ((Partitioner.ByColumn) partitioner).column();
        }
        if (partitioner instanceof Partitioner.ByRange) {
            return ((Partitioner.ByRange) partitioner).column();
        }
        return null;
    }

    /**
     * The YAML keys naming columns, for messages: see {@link TransformSpec#referencedColumns()}.
     */
    List<Map.Entry<String, String>> referencedColumns() {
        return transform.referencedColumns();
    }
}
