package io.changegrid.config;

import java.util.List;

/**
 * A configuration with problems: every problem found, each naming its key path, the offending text
 * and what was expected, so one run shows everything to fix.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(
                "invalid configuration ("
                        + problems.size()
                        + " problem"
                        + (problems.size() == 1 ? "" : "s")
                        + "):\n  - "
                        + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
