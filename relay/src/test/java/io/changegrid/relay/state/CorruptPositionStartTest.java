package io.changegrid.relay.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelayConfiguration;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole relay, not only its {@link PositionStore}, refuses to start on a position file whose both
 * slots are corrupt, before its fetcher opens the source, and leaves the state directory as it
 * found it (a MySQL fetcher with no saved position would delete the schema history). The test
 * source ({@code source.type: generated}) stands for any source: the refusal comes before it.
 */
class CorruptPositionStartTest {

    @TempDir Path state;

    private RelayConfiguration configuration() {
        return RelayConfiguration.load(
                Map.of(),
                Map.of(
                        "source.type", "generated",
                        "source.transactions", "3",
                        "buffer.capacity", "1MiB",
                        "buffer.segmentSize", "64KiB",
                        "state.directory", state.toString(),
                        "http.port", "0"));
    }

    @Test
    void shouldRefuseToStartAndKeepTheStateWhenBothSlotsAreCorrupt() throws Exception {
        try (Relay relay = Relay.start(configuration())) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> relay.status().lastPublishedScn() >= 39);
        }
        Path file = state.resolve("position");
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(30);
            raw.write('X');
            raw.seek(PositionStore.SLOT_BYTES + 30);
            raw.write('Y');
        }
        Files.writeString(state.resolve("schema-history.jsonl"), "{\"kept\":true}\n");
        Map<Path, byte[]> before = contents();

        assertThatThrownBy(() -> Relay.start(configuration()).close())
                .isInstanceOf(CorruptPositionFileException.class)
                .hasMessageContaining("position file corrupt, both slots fail their checksum")
                .hasMessageContaining("file=" + file)
                .hasMessageContaining("Restore the state directory from a backup");
        Map<Path, byte[]> after = contents();
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (Path path : before.keySet()) {
            assertThat(after.get(path)).as("unchanged: %s", path).isEqualTo(before.get(path));
        }
    }

    private Map<Path, byte[]> contents() throws Exception {
        Map<Path, byte[]> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(state)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                files.put(state.relativize(path), Files.readAllBytes(path));
            }
        }
        return files;
    }
}
