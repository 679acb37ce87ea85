package io.changegrid.config;

import java.util.Map;
import java.util.StringJoiner;

/** Validated, typed settings: the result of {@link ConfigSchema#load}. Immutable. */
public final class Config {

    private final ConfigSchema schema;
    private final Map<String, Object> values;
    private final Map<String, String> references;

    /**
     * @param references {@code path → reference text} of the settings that came from a {@link
     *     ValueReference}: {@link #describe()} shows the reference, not what it resolved to
     */
    Config(ConfigSchema schema, Map<String, Object> values, Map<String, String> references) {
        this.schema = schema;
        this.values = Map.copyOf(values);
        this.references = Map.copyOf(references);
    }

    /**
     * The value of a setting of this schema.
     *
     * @throws IllegalArgumentException if the key is not part of the schema (a bug)
     */
    public <T> T get(ConfigKey<T> key) {
        if (!schema.contains(key)) {
            throw new IllegalArgumentException("key not in this schema: path=" + key.path());
        }
        @SuppressWarnings("unchecked")
        T value = (T) values.get(key.path());
        return value;
    }

    /** Every setting with its effective value on one line, secrets masked: logged once at start. */
    public String describe() {
        StringJoiner line = new StringJoiner(", ", "{", "}");
        for (ConfigKey<?> key : schema.keys()) {
            line.add(key.path() + "=" + render(key));
        }
        return line.toString();
    }

    private <T> String render(ConfigKey<T> key) {
        T value = get(key);
        if (key.secret()) {
            return "****";
        }
        if (references.containsKey(key.path())) {
            return references.get(key.path());
        }
        return value == null ? "" : key.kind().format(value);
    }
}
