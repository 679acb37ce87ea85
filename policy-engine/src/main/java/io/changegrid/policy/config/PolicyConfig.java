package io.changegrid.policy.config;

import io.changegrid.config.ConfigException;
import io.changegrid.policy.Policies;
import io.changegrid.policy.Policy;
import io.changegrid.policy.conflict.ConflictStrategy;
import io.changegrid.policy.partition.Partitioner;
import io.changegrid.policy.select.Predicate;
import io.changegrid.policy.select.PredicateParser;
import io.changegrid.policy.select.TablePattern;
import io.changegrid.policy.transform.ColumnSource;
import io.changegrid.policy.transform.Masking;
import io.changegrid.policy.transform.TransformSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the {@code policies:} list of a YAML tree (as {@link io.changegrid.config.YamlConfigFile}
 * reads it) into compiled {@link Policies}. Every problem is collected, {@code path: what: value=},
 * and thrown together. Stateless. The format is shown in {@code PolicyConfigTest.EXAMPLE}.
 */
public final class PolicyConfig {

    private PolicyConfig() {}

    /**
     * Parses {@code tree.policies}.
     *
     * @throws ConfigException listing every problem
     */
    public static Policies parse(Map<String, Object> tree) {
        Object list = tree.get("policies");
        if (list == null) {
            throw new ConfigException(List.of("policies: missing"));
        }
        return parse(list);
    }

    /**
     * Parses a policies list.
     *
     * @throws ConfigException listing every problem
     */
    public static Policies parse(Object policiesList) {
        Problems problems = new Problems();
        List<Policy> policies = new ArrayList<>();
        if (!(policiesList instanceof List)) {
            problems.add("policies", "expected a list", policiesList);
        } else {
            List<?> list = (List<?>) policiesList;
            for (int i = 0; i < list.size(); i++) {
                Policy policy = new PolicyReader("policies[" + i + "]", problems).read(list.get(i));
                if (policy != null) {
                    policies.add(policy);
                }
            }
        }
        problems.throwIfAny();
        return new Policies(policies);
    }

    /** Reads one policy entry; returns {@code null} when it had problems. */
    private static final class PolicyReader {
        private static final Set<String> KEYS =
                Set.of(
                        "name",
                        "include",
                        "exclude",
                        "columns",
                        "where",
                        "transform",
                        "partition",
                        "conflict");

        private final String path;
        private final Problems problems;

        PolicyReader(String path, Problems problems) {
            this.path = path;
            this.problems = problems;
        }

        Policy read(Object entry) {
            int before = problems.count();
            Map<String, Object> map = problems.map(path, entry, KEYS);
            String name = problems.string(path + ".name", map.getOrDefault("name", path));
            List<TablePattern> include = patterns("include", map.get("include"), true);
            List<TablePattern> exclude = patterns("exclude", map.get("exclude"), false);
            Predicate where = null;
            Object whereText = map.get("where");
            if (whereText != null) {
                try {
                    where = PredicateParser.parse(problems.string(path + ".where", whereText));
                } catch (IllegalArgumentException e) {
                    problems.add(path + ".where: " + e.getMessage());
                }
            }
            Map<String, Object> columns =
                    problems.map(
                            path + ".columns", map.get("columns"), Set.of("include", "exclude"));
            TransformSpec transform = transform(columns, map.get("transform"));
            Partitioner partitioner = partition(map.get("partition"));
            Map<String, Object> conflict =
                    problems.map(
                            path + ".conflict", map.get("conflict"), Set.of("strategy", "sources"));
            ConflictStrategy strategy = null;
            if (conflict.get("strategy") != null) {
                String text =
                        problems.string(path + ".conflict.strategy", conflict.get("strategy"));
                try {
                    strategy = ConflictStrategy.valueOf(text);
                } catch (IllegalArgumentException e) {
                    problems.add(path + ".conflict.strategy", "unknown strategy", text);
                }
            }
            List<Integer> sources = new ArrayList<>();
            for (Object id : problems.list(path + ".conflict.sources", conflict.get("sources"))) {
                sources.add(problems.integer(path + ".conflict.sources", id));
            }
            if (strategy == ConflictStrategy.SOURCE_PRIORITY && sources.isEmpty()) {
                problems.add(path + ".conflict.sources", "SOURCE_PRIORITY needs source ids", null);
            }
            if (problems.count() > before) {
                return null;
            }
            return new Policy(
                    path, name, include, exclude, where, transform, partitioner, strategy, sources);
        }

        private List<TablePattern> patterns(String key, Object value, boolean required) {
            if (value == null && required) {
                problems.add(path + "." + key, "missing", null);
            }
            List<TablePattern> patterns = new ArrayList<>();
            List<?> texts = problems.list(path + "." + key, value);
            for (int i = 0; i < texts.size(); i++) {
                String at = path + "." + key + "[" + i + "]";
                try {
                    patterns.add(TablePattern.parse(problems.string(at, texts.get(i))));
                } catch (IllegalArgumentException e) {
                    problems.add(at + ": " + e.getMessage());
                }
            }
            return patterns;
        }

        private TransformSpec transform(Map<String, Object> columns, Object value) {
            String at = path + ".transform";
            Map<String, Object> map =
                    problems.map(
                            at,
                            value,
                            Set.of("database", "table", "rename", "drop", "mask", "add"));
            Map<String, String> rename = new LinkedHashMap<>();
            problems.map(at + ".rename", map.get("rename"), null)
                    .forEach((k, v) -> rename.put(k, problems.string(at + ".rename." + k, v)));
            Map<String, Masking> mask = new LinkedHashMap<>();
            problems.map(at + ".mask", map.get("mask"), null)
                    .forEach(
                            (k, v) ->
                                    mask.put(
                                            k,
                                            TransformReader.read(at + ".mask." + k, v, problems)));
            Map<String, ColumnSource> add = new LinkedHashMap<>();
            problems.map(at + ".add", map.get("add"), null)
                    .forEach(
                            (k, v) ->
                                    add.put(
                                            k,
                                            TransformReader.source(at + ".add." + k, v, problems)));
            // A bad entry was reported and left as null; the spec is then discarded anyway.
            mask.values().removeIf(java.util.Objects::isNull);
            add.values().removeIf(java.util.Objects::isNull);
            return new TransformSpec(
                    map.get("database") == null
                            ? null
                            : problems.string(at + ".database", map.get("database")),
                    map.get("table") == null
                            ? null
                            : problems.string(at + ".table", map.get("table")),
                    names(path + ".columns.include", columns.get("include")),
                    names(path + ".columns.exclude", columns.get("exclude")),
                    names(at + ".drop", map.get("drop")),
                    rename,
                    mask,
                    add);
        }

        private Set<String> names(String at, Object value) {
            Set<String> names = new LinkedHashSet<>();
            for (Object name : problems.list(at, value)) {
                names.add(problems.string(at, name));
            }
            return names;
        }

        private Partitioner partition(Object value) {
            return value == null
                    ? null
                    : PartitionReader.read(path + ".partition", value, problems);
        }
    }
}
