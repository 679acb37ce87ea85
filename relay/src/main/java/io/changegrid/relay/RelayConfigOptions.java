package io.changegrid.relay;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.relay.config.RelayConfiguration;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The command-line options that say which relay: a YAML file and overrides, for every command. */
final class RelayConfigOptions {

    @Option(
            names = {"-c", "--config"},
            description = "YAML configuration file (docs/relay-configuration.md).")
    private Path configFile;

    @Option(
            names = {"-s", "--set"},
            description = "Overrides one setting: key=value (repeatable).")
    private Map<String, String> overrides = new LinkedHashMap<>();

    /**
     * The relay's configuration from the file and the overrides.
     *
     * @throws ConfigException listing every problem
     */
    RelayConfiguration load() throws Exception {
        Map<String, Object> tree = configFile == null ? Map.of() : YamlConfigFile.read(configFile);
        return RelayConfiguration.load(tree, overrides);
    }
}
