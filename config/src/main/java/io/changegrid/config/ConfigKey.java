package io.changegrid.config;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * One setting, defined once: where it lives in the config file, its type, its default, what makes a
 * value valid, and the sentence the reference documentation shows for it.
 *
 * @param path the dotted path in the YAML file, e.g. {@code buffer.capacity}
 * @param kind how its text becomes a value
 * @param defaultValue the value when the file does not set it; {@code null} makes it required
 * @param valid what a valid value satisfies
 * @param rule the rule in words, shown when a value breaks it (e.g. {@code between 1 and 65535})
 * @param doc what the setting does
 * @param secret whether the value is masked in logs
 * @param <T> the value's type
 */
public record ConfigKey<T>(
        String path,
        ValueKind<T> kind,
        T defaultValue,
        Predicate<T> valid,
        String rule,
        String doc,
        boolean secret) {

    public ConfigKey {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(valid, "valid");
        Objects.requireNonNull(doc, "doc");
    }

    /** A setting with a default and no rule beyond its type. */
    public static <T> ConfigKey<T> of(String path, ValueKind<T> kind, T defaultValue, String doc) {
        return new ConfigKey<>(path, kind, defaultValue, value -> true, "", doc, false);
    }

    /** A setting the file must give. */
    public static <T> ConfigKey<T> required(String path, ValueKind<T> kind, String doc) {
        return new ConfigKey<>(path, kind, null, value -> true, "", doc, false);
    }

    /** This setting with a rule its values must satisfy. */
    public ConfigKey<T> validatedBy(Predicate<T> rule, String ruleInWords) {
        return new ConfigKey<>(path, kind, defaultValue, rule, ruleInWords, doc, secret);
    }

    /** This setting, masked in logs. */
    public ConfigKey<T> asSecret() {
        return new ConfigKey<>(path, kind, defaultValue, valid, rule, doc, true);
    }

    /** Whether a file must give this setting. */
    public boolean isRequired() {
        return defaultValue == null;
    }
}
