package io.changegrid.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The settings of one program, in documentation order. Loads a YAML tree plus command-line
 * overrides into a {@link Config}, reporting every problem at once: unknown keys (with the closest
 * known one), missing required keys, values of the wrong type and values that break their rule.
 */
public final class ConfigSchema {

    private final List<ConfigKey<?>> keys;
    private final Map<String, ConfigKey<?>> byPath = new LinkedHashMap<>();

    public ConfigSchema(List<ConfigKey<?>> keys) {
        this.keys = List.copyOf(keys);
        for (ConfigKey<?> key : keys) {
            if (byPath.put(key.path(), key) != null) {
                throw new IllegalArgumentException("key defined twice: path=" + key.path());
            }
        }
    }

    public List<ConfigKey<?>> keys() {
        return keys;
    }

    boolean contains(ConfigKey<?> key) {
        return byPath.get(key.path()) == key;
    }

    /**
     * Validates a configuration.
     *
     * @param tree the YAML document as nested maps (see {@link YamlConfigFile}); may be empty
     * @param overrides {@code path → text} from the command line; they win over the file
     * @throws ConfigException listing every problem
     */
    public Config load(Map<String, Object> tree, Map<String, String> overrides) {
        return load(tree, overrides, System::getenv);
    }

    /**
     * Validates a configuration, resolving {@link ValueReference}s ({@code ${env:NAME}}, {@code
     * ${file:/path}}) once, here, for every program that reads settings: a value that came from a
     * reference is shown in errors as the reference, never as what it resolved to.
     *
     * @param environment the environment variables {@code ${env:NAME}} reads
     */
    public Config load(
            Map<String, Object> tree,
            Map<String, String> overrides,
            UnaryOperator<String> environment) {
        Map<String, Object> raw = new HashMap<>();
        List<String> problems = new ArrayList<>();
        flatten("", tree, raw, problems);
        raw.putAll(overrides);
        for (String path : raw.keySet()) {
            if (!byPath.containsKey(path)) {
                problems.add("unknown key: path=" + path + closest(path));
            }
        }
        Map<String, String> shownAs = new HashMap<>();
        for (Map.Entry<String, Object> entry : raw.entrySet()) {
            ConfigKey<?> key = byPath.get(entry.getKey());
            if (key != null) {
                entry.setValue(
                        ReferenceResolution.resolve(
                                key, entry.getValue(), environment, shownAs, problems));
            }
        }
        Map<String, Object> values = new HashMap<>();
        for (ConfigKey<?> key : keys) {
            Object value = raw.get(key.path());
            if (value != ReferenceResolution.UNRESOLVED) {
                parse(key, value, shownAs.get(key.path()), values, problems);
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new Config(this, values, shownAs);
    }

    /**
     * @param shownAs the text errors show instead of the value (the reference it came from), or
     *     null to show the value itself
     */
    private static <T> void parse(
            ConfigKey<T> key,
            Object raw,
            String shownAs,
            Map<String, Object> values,
            List<String> problems) {
        if (raw == null) {
            if (key.isRequired()) {
                problems.add("missing required key: path=" + key.path() + " (" + key.doc() + ")");
            } else {
                values.put(key.path(), key.defaultValue());
            }
            return;
        }
        T value;
        try {
            value = key.kind().parse(raw);
        } catch (IllegalArgumentException | ArithmeticException e) {
            problems.add(
                    "bad value: path="
                            + key.path()
                            + ", value="
                            + shown(key, raw, shownAs)
                            + ": "
                            + e.getMessage()
                            + " ("
                            + key.kind().describe()
                            + ")");
            return;
        }
        if (!key.valid().test(value)) {
            problems.add(
                    "bad value: path="
                            + key.path()
                            + ", value="
                            + shown(key, raw, shownAs)
                            + ": must be "
                            + key.rule());
            return;
        }
        values.put(key.path(), value);
    }

    private static String shown(ConfigKey<?> key, Object raw, String shownAs) {
        if (shownAs != null) {
            return shownAs;
        }
        return key.secret() ? "****" : String.valueOf(raw);
    }

    @SuppressWarnings("unchecked")
    private void flatten(
            String prefix,
            Map<String, Object> tree,
            Map<String, Object> raw,
            List<String> problems) {
        for (Map.Entry<String, Object> entry : tree.entrySet()) {
            String path = prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey();
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> nested && !byPath.containsKey(path)) {
                flatten(path, (Map<String, Object>) nested, raw, problems);
            } else {
                raw.put(path, value);
            }
        }
    }

    private String closest(String path) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String known : byPath.keySet()) {
            int distance = editDistance(path, known);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = known;
            }
        }
        return best != null && bestDistance <= Math.max(2, path.length() / 4)
                ? "; did you mean " + best + "?"
                : "";
    }

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
