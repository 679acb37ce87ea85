package io.changegrid.bench.relay;

import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A YAML file with a {@code policies:} list for the relays (docs/policies.md), as {@code stage1
 * --policies} takes it; the relay checks the policies themselves at start.
 */
public final class PolicyFile {

    private PolicyFile() {}

    /**
     * The file's {@code policies:} list; empty, with the problem added, if it has none.
     *
     * @param option the option that named the file, for the message
     */
    public static List<?> read(Path file, String option, OptionProblems problems) {
        if (!Files.isReadable(file)) {
            problems.add(option, "no readable file", file);
            return List.of();
        }
        Map<String, Object> tree;
        try {
            tree = YamlConfigFile.read(file);
        } catch (ConfigException e) {
            problems.add(option, "not YAML: " + String.join("; ", e.problems()), file);
            return List.of();
        }
        Object policies = tree.get("policies");
        if (!(policies instanceof List) || ((List<?>) policies).isEmpty()) {
            problems.add(option, "no policies: list in the file", file);
            return List.of();
        }
        return (List<?>) policies;
    }
}
