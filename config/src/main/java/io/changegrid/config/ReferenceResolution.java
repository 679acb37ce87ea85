package io.changegrid.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Replaces the {@link ValueReference}s in one raw setting (a string, or the strings of a list) by
 * what they refer to, recording each problem with the key path and the reference, never a resolved
 * value.
 */
final class ReferenceResolution {

    /** Marks a setting whose reference failed: its problem is reported, it is not parsed. */
    static final Object UNRESOLVED = new Object();

    private ReferenceResolution() {}

    /**
     * @param key the setting, for its path and whether it is secret
     * @param shownAs receives {@code path → reference text} for every setting that held one
     * @return the raw value with its references resolved, or {@link #UNRESOLVED}
     */
    static Object resolve(
            ConfigKey<?> key,
            Object raw,
            UnaryOperator<String> environment,
            Map<String, String> shownAs,
            List<String> problems) {
        if (raw instanceof String text) {
            return resolveText(key, text, environment, shownAs, problems);
        }
        if (raw instanceof List<?> list) {
            List<Object> resolved = new ArrayList<>(list.size());
            boolean failed = false;
            for (Object item : list) {
                Object value =
                        item instanceof String text
                                ? resolveText(key, text, environment, shownAs, problems)
                                : item;
                failed |= value == UNRESOLVED;
                resolved.add(value);
            }
            return failed ? UNRESOLVED : resolved;
        }
        return raw;
    }

    private static Object resolveText(
            ConfigKey<?> key,
            String text,
            UnaryOperator<String> environment,
            Map<String, String> shownAs,
            List<String> problems) {
        String path = key.path();
        ValueReference reference;
        try {
            var found = ValueReference.of(text);
            if (found.isEmpty()) {
                return text;
            }
            reference = found.get();
        } catch (IllegalArgumentException e) {
            // A secret's text may be the secret itself, merely containing "${env:".
            String shown = key.secret() ? "****" : text;
            problems.add(
                    "bad reference: path=" + path + ", value=" + shown + ": " + e.getMessage());
            return UNRESOLVED;
        }
        shownAs.merge(path, reference.text(), (a, b) -> a + ", " + b);
        try {
            return reference.resolve(environment);
        } catch (IllegalArgumentException e) {
            problems.add(
                    "unresolved reference: path="
                            + path
                            + ", reference="
                            + reference
                            + ": "
                            + e.getMessage());
            return UNRESOLVED;
        }
    }
}
