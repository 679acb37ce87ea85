package io.changegrid.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkedSectionTest {

    @TempDir Path directory;

    @Test
    void shouldReplaceOnlyBetweenTheMarkersWhenTheFileHasThem() throws Exception {
        Path file = directory.resolve("doc.md");
        Files.writeString(
                file,
                "# Title\nhand-written\n<!-- report:begin -->\nold table\n<!-- report:end -->\nafter\n");

        MarkedSection.replace(file, "new table\n");

        assertThat(Files.readString(file))
                .isEqualTo(
                        "# Title\nhand-written\n<!-- report:begin -->\nnew table\n<!-- report:end -->\nafter\n");
    }

    @Test
    void shouldNameTheFileWhenMarkersAreMissing() throws Exception {
        Path file = directory.resolve("plain.md");
        Files.writeString(file, "# nothing to replace\n");

        assertThatThrownBy(() -> MarkedSection.replace(file, "x"))
                .hasMessageContaining("report markers missing")
                .hasMessageContaining("file=" + file);
        assertThat(Files.readString(file)).isEqualTo("# nothing to replace\n");
    }
}
