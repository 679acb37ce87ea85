package io.changegrid.console.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Generates the console's configuration reference from the key definitions. Write it with {@code
 * CHANGEGRID_WRITE_DOCS=true mvn -pl console test -Dtest=ConsoleSettingsReferenceTest}; once the
 * page exists, this test keeps it in step with the keys.
 */
class ConsoleSettingsReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "console-configuration.md");

    @Test
    void shouldMatchTheReferenceInDocsWhenKeysChange() throws Exception {
        String generated =
                ConfigReference.markdown(
                        "Console configuration",
                        "Every setting of the web console (docs/operations.md), as YAML keys (nested maps"
                                + " or dotted paths) or as `--set key=value` on the command line, which wins."
                                + " Unknown keys, missing required keys and bad values are all reported at"
                                + " start, each naming its key.",
                        ConsoleSettings.SCHEMA);
        if ("true".equals(System.getenv("CHANGEGRID_WRITE_DOCS"))) {
            Files.writeString(PAGE, generated);
        }
        for (ConfigKey<?> key : ConsoleSettings.SCHEMA.keys()) {
            assertThat(generated).contains("| `" + key.path() + "` |");
        }
        if (Files.exists(PAGE)) {
            assertThat(Files.readString(PAGE))
                    .as(
                            "docs/console-configuration.md is generated; regenerate it with"
                                    + " CHANGEGRID_WRITE_DOCS=true mvn -pl console test -Dtest=ConsoleSettingsReferenceTest")
                    .isEqualTo(generated);
        }
    }

    @Test
    void shouldNameEveryBadKeyWhenTheConfigurationIsInvalid() {
        assertThatThrownBy(
                        () ->
                                ConsoleConfig.of(
                                        Map.of("http.port", "70000", "sample.interval", "10ms")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cluster.zookeeper")
                .hasMessageContaining("http.port")
                .hasMessageContaining("sample.interval");
    }
}
