package io.changegrid.consumer.group.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigReference;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Generates the consumer's configuration reference from the key definitions. Write it with {@code
 * CHANGEGRID_WRITE_DOCS=true mvn -pl consumer-group test -Dtest=ConsumerSettingsReferenceTest};
 * once the page exists, this test keeps it in step with the keys.
 */
class ConsumerSettingsReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "consumer-configuration.md");

    @Test
    void shouldMatchTheReferenceInDocsWhenKeysChange() throws Exception {
        String generated =
                ConfigReference.markdown(
                        "Consumer configuration",
                        "Every setting of a consumer, as YAML keys (nested maps or dotted paths) or as"
                                + " `--set key=value` on the command line, which wins. Unknown keys, missing required"
                                + " keys and bad values are all reported at start, each naming its key;"
                                + " `Consumer.builder()` checks the same rules.",
                        GroupSettings.SCHEMA);
        if ("true".equals(System.getenv("CHANGEGRID_WRITE_DOCS"))) {
            Files.writeString(PAGE, generated);
        }
        for (ConfigKey<?> key : GroupSettings.SCHEMA.keys()) {
            assertThat(generated).contains("| `" + key.path() + "` |");
        }
        if (Files.exists(PAGE)) {
            assertThat(Files.readString(PAGE))
                    .as(
                            "docs/consumer-configuration.md is generated; regenerate it with"
                                    + " CHANGEGRID_WRITE_DOCS=true mvn -pl consumer-group test -Dtest=ConsumerSettingsReferenceTest")
                    .isEqualTo(generated);
        }
    }
}
