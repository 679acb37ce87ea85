package io.changegrid.relay.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.YamlConfigFile;
import io.changegrid.policy.config.PolicyConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the examples of {@code docs/policies.md} valid: every YAML block parses, relay examples as
 * a whole relay configuration (so {@code capture.partition} is checked against the policies),
 * consumer examples as policies.
 */
class PoliciesDocTest {

    private static final Path PAGE = Path.of("..", "docs", "policies.md");
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    @Test
    void shouldParseEveryExampleWhenTheDocumentationIsRead() throws Exception {
        Matcher blocks = YAML_BLOCK.matcher(Files.readString(PAGE));
        List<String> examples = new ArrayList<>();
        while (blocks.find()) {
            examples.add(blocks.group(1));
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(4);
        for (String example : examples) {
            Map<String, Object> tree =
                    new LinkedHashMap<>(YamlConfigFile.parse(example, PAGE.toString()));
            if (tree.containsKey("relays")) {
                assertThat(PolicyConfig.parse(tree).policies()).as(example).isNotEmpty();
            } else {
                RelayConfiguration configuration =
                        RelayConfiguration.load(
                                tree, Map.of("source.host", "db", "source.user", "relay"));
                assertThat(configuration.plan().isEverything()).as(example).isFalse();
            }
        }
    }
}
