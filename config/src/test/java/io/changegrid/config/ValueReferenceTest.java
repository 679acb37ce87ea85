package io.changegrid.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValueReferenceTest {

    private static final ConfigKey<String> USER =
            ConfigKey.required("source.user", ValueKind.STRING, "user");
    private static final ConfigKey<String> PASSWORD =
            ConfigKey.of("source.password", ValueKind.STRING, "", "password").asSecret();
    private static final ConfigKey<Integer> PORT =
            ConfigKey.of("source.port", ValueKind.INT, 3306, "port");
    private static final ConfigKey<List<String>> TOKENS =
            ConfigKey.of("tokens", ValueKind.STRING_LIST, List.of(), "tokens").asSecret();

    private final ConfigSchema schema = new ConfigSchema(List.of(USER, PASSWORD, PORT, TOKENS));

    @TempDir Path directory;

    @Test
    void shouldResolveAnEnvironmentVariableWhenAValueIsAnEnvReference() {
        // CHANGEGRID_TEST_SECRET is set by this module's surefire configuration.
        Config config =
                schema.load(
                        Map.of("source", Map.of("user", "cdc")),
                        Map.of("source.password", "${env:CHANGEGRID_TEST_SECRET}"));

        assertThat(config.get(PASSWORD)).isEqualTo("env-secret-7f3a");
        assertThat(config.describe()).doesNotContain("env-secret-7f3a");
    }

    @Test
    void shouldReadAFileWithoutItsFinalLineBreakWhenAValueIsAFileReference() throws Exception {
        Path secret = directory.resolve("db.pass");
        Files.writeString(secret, "file-secret-91c2\n");
        Path port = directory.resolve("port");
        Files.writeString(port, "3307");

        Config config =
                schema.load(
                        Map.of(
                                "source",
                                Map.of(
                                        "user", "cdc",
                                        "password", "${file:" + secret + "}",
                                        "port", "${file:" + port + "}")),
                        Map.of());

        assertThat(config.get(PASSWORD)).isEqualTo("file-secret-91c2");
        assertThat(config.get(PORT)).isEqualTo(3307);
        assertThat(config.describe())
                .contains("source.password=****", "source.port=${file:" + port + "}")
                .doesNotContain("file-secret-91c2");
    }

    @Test
    void shouldResolveEachItemWhenAListHoldsReferences() throws Exception {
        Path secret = directory.resolve("token");
        Files.writeString(secret, "token-b");

        Config config =
                schema.load(
                        Map.of(
                                "source",
                                Map.of("user", "cdc"),
                                "tokens",
                                List.of("token-a", "${file:" + secret + "}")),
                        Map.of());

        assertThat(config.get(TOKENS)).containsExactly("token-a", "token-b");
    }

    @Test
    void shouldNameTheKeyAndTheReferenceWhenAVariableOrFileIsMissing() {
        Path missing = directory.resolve("nothing-here");

        assertThatThrownBy(
                        () ->
                                schema.load(
                                        Map.of(),
                                        Map.of(
                                                "source.user",
                                                "${env:CHANGEGRID_NO_SUCH_VAR}",
                                                "source.password",
                                                "${file:" + missing + "}")))
                .isInstanceOf(ConfigException.class)
                .satisfies(
                        e ->
                                assertThat(((ConfigException) e).problems())
                                        .containsExactlyInAnyOrder(
                                                "unresolved reference: path=source.user,"
                                                        + " reference=${env:CHANGEGRID_NO_SUCH_VAR}:"
                                                        + " environment variable not set",
                                                "unresolved reference: path=source.password,"
                                                        + " reference=${file:"
                                                        + missing
                                                        + "}: file not found"));
    }

    @Test
    void shouldShowTheReferenceNotTheSecretWhenAResolvedValueIsInvalid() throws Exception {
        Path wrong = directory.resolve("port");
        Files.writeString(wrong, "not-a-port-but-a-secret");

        assertThatThrownBy(
                        () ->
                                schema.load(
                                        Map.of(),
                                        Map.of(
                                                "source.user",
                                                "cdc",
                                                "source.port",
                                                "${file:" + wrong + "}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("bad value: path=source.port, value=${file:" + wrong + "}")
                .hasMessageNotContaining("not-a-port-but-a-secret");
    }

    @Test
    void shouldRefuseAReferenceThatIsNotTheWholeValue() {
        assertThatThrownBy(
                        () ->
                                schema.load(
                                        Map.of(),
                                        Map.of(
                                                "source.user", "cdc",
                                                "source.password", "pre-${env:HOME}",
                                                "source.port", "${file:relative/path}")))
                .isInstanceOf(ConfigException.class)
                .satisfies(
                        e ->
                                assertThat(((ConfigException) e).problems())
                                        .containsExactlyInAnyOrder(
                                                "bad reference: path=source.password, value=****:"
                                                        + " a reference must be the whole value,"
                                                        + " ${env:NAME} or ${file:/path}",
                                                "bad reference: path=source.port,"
                                                        + " value=${file:relative/path}: the file must be"
                                                        + " an absolute path"));
    }

    @Test
    void shouldCreateAPrivateFileReadableByItsOwnerOnly() throws Exception {
        Path file = directory.resolve("relay.yaml");
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        PrivateFile.write(file, "source.password: x\n");

        assertThat(Files.readString(file)).isEqualTo("source.password: x\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }
}
