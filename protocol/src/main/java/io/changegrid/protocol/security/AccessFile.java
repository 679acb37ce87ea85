package io.changegrid.protocol.security;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.protocol.TableGlob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The access file ({@code security.access}): per principal, what it may stream, see and read, and
 * whether it holds the operations role.
 *
 * <pre>
 * principals:
 *   orders-app:                          # a token's principal, or a certificate's CN/SAN
 *     tables: [shop.orders, shop.customers]
 *     columns:                           # optional projection, first matching pattern wins
 *       shop.customers: [id, name]
 *     schemas: [shop.*]                  # optional; the tables' schemas are always readable
 *     operations: false                  # /v1/status and /metrics
 *   ops:
 *     operations: true
 *   anonymous: {tables: [public.*]}      # used when anonymous access is allowed
 * </pre>
 *
 * Shared by every server that reads it: the relay applies all of an entry (its {@code Grant}), the
 * console only the operations role. Every problem is reported at once, naming its path. Immutable.
 */
public final class AccessFile {

    private static final Set<String> KEYS = Set.of("tables", "columns", "schemas", "operations");

    private final Map<String, AccessEntry> entries;

    private AccessFile(Map<String, AccessEntry> entries) {
        this.entries = Map.copyOf(entries);
    }

    /**
     * Reads an access file.
     *
     * @throws ConfigException listing every problem, each naming its path
     */
    public static AccessFile read(Path file) {
        return parse(YamlConfigFile.read(file));
    }

    /**
     * Parses an access file's YAML tree.
     *
     * @throws ConfigException listing every problem, each naming its path
     */
    public static AccessFile parse(Map<String, Object> tree) {
        List<String> problems = new ArrayList<>();
        Map<String, AccessEntry> entries = new LinkedHashMap<>();
        for (String key : tree.keySet()) {
            if (!key.equals("principals")) {
                problems.add("unknown key: path=" + key + "; known is principals");
            }
        }
        if (tree.get("principals") instanceof Map<?, ?> principals) {
            for (Map.Entry<?, ?> entry : principals.entrySet()) {
                String name = String.valueOf(entry.getKey());
                String path = "principals." + name;
                Map<?, ?> rules = entry.getValue() instanceof Map<?, ?> m ? m : Map.of();
                if (!(entry.getValue() instanceof Map<?, ?>) && entry.getValue() != null) {
                    problems.add("bad value: path=" + path + ": expected a map of rules");
                }
                for (Object rule : rules.keySet()) {
                    if (!KEYS.contains(String.valueOf(rule))) {
                        problems.add(
                                "unknown key: path="
                                        + path
                                        + "."
                                        + rule
                                        + "; known are tables, columns, schemas, operations");
                    }
                }
                List<TableGlob> tables = globs(rules.get("tables"), path + ".tables", problems);
                List<TableGlob> schemas = globs(rules.get("schemas"), path + ".schemas", problems);
                Map<TableGlob, Set<String>> columns =
                        columns(rules.get("columns"), path + ".columns", problems);
                Object operations = rules.get("operations");
                if (operations != null && !(operations instanceof Boolean)) {
                    problems.add(
                            "bad value: path="
                                    + path
                                    + ".operations, value="
                                    + operations
                                    + ": true or false");
                }
                entries.put(
                        name,
                        new AccessEntry(
                                name, tables, columns, schemas, Boolean.TRUE.equals(operations)));
            }
        } else if (tree.containsKey("principals")) {
            problems.add("bad value: path=principals: expected a map of principal to rules");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new AccessFile(entries);
    }

    /** The principal's entry, or null when the file does not name it (it may do nothing). */
    public AccessEntry entry(String principal) {
        return entries.get(principal);
    }

    private static List<TableGlob> globs(Object raw, String path, List<String> problems) {
        List<TableGlob> globs = new ArrayList<>();
        if (raw == null) {
            return globs;
        }
        if (!(raw instanceof List<?> list)) {
            problems.add(
                    "bad value: path=" + path + ": expected a list of database.table patterns");
            return globs;
        }
        for (int i = 0; i < list.size(); i++) {
            try {
                globs.add(TableGlob.parse(String.valueOf(list.get(i))));
            } catch (IllegalArgumentException e) {
                problems.add("bad value: path=" + path + "[" + i + "]: " + e.getMessage());
            }
        }
        return globs;
    }

    private static Map<TableGlob, Set<String>> columns(
            Object raw, String path, List<String> problems) {
        Map<TableGlob, Set<String>> columns = new LinkedHashMap<>();
        if (raw == null) {
            return columns;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            problems.add(
                    "bad value: path=" + path + ": expected a map of table pattern to columns");
            return columns;
        }
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String table = String.valueOf(entry.getKey());
            TableGlob glob;
            try {
                glob = TableGlob.parse(table);
            } catch (IllegalArgumentException e) {
                problems.add("bad value: path=" + path + "." + table + ": " + e.getMessage());
                continue;
            }
            if (!(entry.getValue() instanceof List<?> names) || names.isEmpty()) {
                problems.add(
                        "bad value: path="
                                + path
                                + "."
                                + table
                                + ": expected a non-empty list of column names");
                continue;
            }
            Set<String> set = new LinkedHashSet<>();
            names.forEach(n -> set.add(String.valueOf(n)));
            columns.put(glob, set);
        }
        return columns;
    }
}
