package io.changegrid.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Reads a YAML configuration file into the nested maps {@link ConfigSchema#load} validates. */
public final class YamlConfigFile {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private YamlConfigFile() {}

    /**
     * Reads the file; an empty file is an empty tree.
     *
     * @throws ConfigException if the file is missing or is not a YAML mapping, naming file and line
     */
    public static Map<String, Object> read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(List.of("config file not found: file=" + file));
        } catch (IOException e) {
            throw new ConfigException(
                    List.of(
                            "config file not readable: file="
                                    + file
                                    + ", reason="
                                    + e.getMessage()));
        }
        return parse(text, file.toString());
    }

    /** Parses YAML text; {@code source} names it in errors. */
    public static Map<String, Object> parse(String text, String source) {
        if (text.isBlank()) {
            return Map.of();
        }
        try {
            Map<String, Object> tree =
                    YAML.readValue(text, new TypeReference<Map<String, Object>>() {});
            return tree == null ? Map.of() : tree;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : ", line=" + e.getLocation().getLineNr();
            throw new ConfigException(
                    List.of(
                            "config file is not a YAML mapping: file="
                                    + source
                                    + where
                                    + ", reason="
                                    + e.getOriginalMessage()));
        }
    }
}
