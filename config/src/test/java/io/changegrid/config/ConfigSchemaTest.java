package io.changegrid.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigSchemaTest {

    private static final ConfigKey<String> HOST =
            ConfigKey.required("source.host", ValueKind.STRING, "source host");
    private static final ConfigKey<Integer> PORT =
            ConfigKey.of("source.port", ValueKind.INT, 3306, "source port")
                    .validatedBy(p -> p > 0 && p < 65536, "between 1 and 65535");
    private static final ConfigKey<String> PASSWORD =
            ConfigKey.of("source.password", ValueKind.STRING, "", "password").asSecret();
    private static final ConfigKey<Long> CAPACITY =
            ConfigKey.of("buffer.capacity", ValueKind.BYTES, 64L << 20, "buffer size");
    private static final ConfigKey<Duration> HEARTBEAT =
            ConfigKey.of(
                    "source.heartbeatInterval",
                    ValueKind.DURATION,
                    Duration.ofSeconds(1),
                    "heartbeat");
    private static final ConfigKey<List<String>> INCLUDE =
            ConfigKey.of("capture.include", ValueKind.STRING_LIST, List.of(), "tables");

    private final ConfigSchema schema =
            new ConfigSchema(List.of(HOST, PORT, PASSWORD, CAPACITY, HEARTBEAT, INCLUDE));

    @Test
    void shouldReadTypedValuesFromNestedYamlWhenTheFileIsValid() {
        Map<String, Object> tree =
                YamlConfigFile.parse(
                        """
                source:
                  host: db1
                  port: 3307
                  password: s3cret
                  heartbeatInterval: 250ms
                buffer:
                  capacity: 8GiB
                capture:
                  include: [shop.*, crm.users]
                """,
                        "test.yaml");

        Config config = schema.load(tree, Map.of());

        assertThat(config.get(HOST)).isEqualTo("db1");
        assertThat(config.get(PORT)).isEqualTo(3307);
        assertThat(config.get(CAPACITY)).isEqualTo(8L << 30);
        assertThat(config.get(HEARTBEAT)).isEqualTo(Duration.ofMillis(250));
        assertThat(config.get(INCLUDE)).containsExactly("shop.*", "crm.users");
    }

    @Test
    void shouldReportEveryProblemAtOnceNamingEachKeyPath() {
        Map<String, Object> tree =
                YamlConfigFile.parse(
                        """
                source:
                  prot: 3307
                  port: 70000
                  heartbeatInterval: soon
                buffer:
                  capacity: lots
                """,
                        "test.yaml");

        assertThatThrownBy(() -> schema.load(tree, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(
                        e ->
                                assertThat(((ConfigException) e).problems())
                                        .containsExactlyInAnyOrder(
                                                "unknown key: path=source.prot; did you mean source.port?",
                                                "missing required key: path=source.host (source host)",
                                                "bad value: path=source.port, value=70000: must be between 1 and 65535",
                                                "bad value: path=source.heartbeatInterval, value=soon: expected a number and a unit"
                                                        + " (ms, s, m, h) (duration (250ms, 5s, 2m, 1h))",
                                                "bad value: path=buffer.capacity, value=lots: expected a number and a unit (B, KiB, MiB,"
                                                        + " GiB, TiB) (byte size (64MiB, 8GiB))"));
    }

    @Test
    void shouldLetCommandLineOverridesWinAndMaskSecretsWhenDescribed() {
        Config config =
                schema.load(
                        YamlConfigFile.parse("source: {host: db1, password: hunter2}", "test.yaml"),
                        Map.of("source.host", "db2", "buffer.capacity", "512MiB"));

        assertThat(config.get(HOST)).isEqualTo("db2");
        assertThat(config.describe())
                .isEqualTo(
                        "{source.host=db2, source.port=3306, source.password=****, buffer.capacity=512MiB,"
                                + " source.heartbeatInterval=1s, capture.include=[]}")
                .doesNotContain("hunter2");
    }

    @Test
    void shouldNameFileAndLineWhenTheYamlIsBroken() {
        assertThatThrownBy(() -> YamlConfigFile.parse("source:\n  host: [unclosed\n", "relay.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("file=relay.yaml, line=");
    }

    @Test
    void shouldRenderAReferenceRowPerKey() {
        String page = ConfigReference.markdown("Relay configuration", "Settings.", schema);

        assertThat(page)
                .contains("| `source.host` | string | *required* |  | source host |")
                .contains(
                        "| `source.port` | integer | `3306` | between 1 and 65535 | source port |")
                .contains("| `source.password` | string | **** |  | password |")
                .contains(
                        "| `buffer.capacity` | byte size (64MiB, 8GiB) | `64MiB` |  | buffer size |");
    }
}
