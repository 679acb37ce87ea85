package io.changegrid.relay.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.ConfigReference;
import io.changegrid.config.ConfigSchema;
import io.changegrid.fetchers.FetcherProviders;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/relay-configuration.md} generated from the key definitions. Regenerate with
 * {@code CHANGEGRID_WRITE_DOCS=true mvn -pl relay test -Dtest=RelaySettingsReferenceTest}.
 */
class RelaySettingsReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "relay-configuration.md");

    @Test
    void shouldMatchTheReferenceInDocsWhenKeysChange() throws Exception {
        String generated =
                ConfigReference.markdown(
                                "Relay configuration",
                                "Every setting of a relay, as YAML keys (nested maps or dotted paths) or as"
                                        + " `--set key=value` on the command line, which wins. Unknown keys, missing required"
                                        + " keys and bad values are all reported at start, each naming its key. See"
                                        + " [relay.md](relay.md) for running a relay. `source.type` chooses the fetcher;"
                                        + " each type adds its own `source.*` settings, listed below, and a key the"
                                        + " chosen type does not have is reported as unknown.",
                                new ConfigSchema(RelaySettings.KEYS))
                        + ConfigReference.section(
                                "source.type: mysql",
                                "MySQL and MariaDB, read from the binlog (the default).",
                                FetcherProviders.find("mysql").settings())
                        + ConfigReference.section(
                                "source.type: postgresql",
                                "PostgreSQL, read by logical decoding (pgoutput); see"
                                        + " [sources/postgresql.md](sources/postgresql.md).",
                                FetcherProviders.find("postgresql").settings())
                        + ConfigReference.section(
                                "source.type: logminer",
                                "Oracle, mined with LogMiner over JDBC; see"
                                        + " [sources/oracle-logminer.md](sources/oracle-logminer.md).",
                                FetcherProviders.find("logminer").settings())
                        + ConfigReference.section(
                                "source.type: goldengate",
                                "Oracle through GoldenGate for Big Data: the JSON files its File Writer"
                                        + " handler writes; see [sources/goldengate.md](sources/goldengate.md).",
                                FetcherProviders.find("goldengate").settings());
        if ("true".equals(System.getenv("CHANGEGRID_WRITE_DOCS"))) {
            Files.writeString(PAGE, generated);
        }
        assertThat(PAGE)
                .as(
                        "docs/relay-configuration.md is generated; regenerate it with"
                                + " CHANGEGRID_WRITE_DOCS=true mvn -pl relay test -Dtest=RelaySettingsReferenceTest")
                .exists();
        assertThat(Files.readString(PAGE)).isEqualTo(generated);
    }
}
