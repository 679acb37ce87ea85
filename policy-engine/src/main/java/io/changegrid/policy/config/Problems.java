package io.changegrid.policy.config;

import io.changegrid.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects configuration problems and reads typed values from the YAML tree, recording a problem
 * (and returning a harmless default) instead of failing, so one run reports everything. Not
 * thread-safe; one per parse.
 */
final class Problems {

    private final List<String> problems = new ArrayList<>();

    int count() {
        return problems.size();
    }

    void add(String problem) {
        problems.add(problem);
    }

    /** {@code path: what: value=...}, or {@code path: what} without a value. */
    void add(String path, String what, Object value) {
        problems.add(path + ": " + what + (value == null ? "" : ": value=" + value));
    }

    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** A mapping (empty if absent); keys outside {@code allowed} (unless null) are problems. */
    Map<String, Object> map(String path, Object value, Set<String> allowed) {
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map)) {
            add(path, "expected a mapping", value);
            return Map.of();
        }
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> map.put(String.valueOf(k), v));
        for (String key : map.keySet()) {
            if (allowed != null && !allowed.contains(key)) {
                add(
                        path + "." + key,
                        "unknown key, expected one of " + new java.util.TreeSet<>(allowed),
                        null);
            }
        }
        return map;
    }

    /** A list (empty if absent); a single scalar counts as a list of one. */
    List<?> list(String path, Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof Map) {
            add(path, "expected a list", value);
            return List.of();
        }
        return value instanceof List ? (List<?>) value : List.of(value);
    }

    String string(String path, Object value) {
        if (value instanceof Map || value instanceof List) {
            add(path, "expected a text", value);
            return "";
        }
        return String.valueOf(value);
    }

    int integer(String path, Object value) {
        if (value instanceof Integer) {
            return (Integer) value;
        }
        try {
            return Integer.parseInt(String.valueOf(value));
        } catch (NumberFormatException e) {
            add(path, "expected an integer", value);
            return 0;
        }
    }
}
