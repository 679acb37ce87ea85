package io.changegrid.consumer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointStoreTest {

    @TempDir Path directory;

    @Test
    void shouldLoadNothingWhenNoCheckpointWasSaved() throws IOException {
        assertThat(new FileCheckpointStore(directory.resolve("cp")).load()).isEmpty();
    }

    @Test
    void shouldLoadTheLastSavedScnWhenSavedRepeatedly() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(directory.resolve("nested/cp"));
        store.save(4_294_967_396L);
        store.save(4_294_967_500L);

        assertThat(new FileCheckpointStore(directory.resolve("nested/cp")).load())
                .hasValue(4_294_967_500L);
        assertThat(Files.readString(directory.resolve("nested/cp"))).isEqualTo("scn=4294967500\n");
        assertThat(directory.resolve("nested")).isDirectoryNotContaining("glob:**.tmp");
    }

    @Test
    void shouldReplaceAStaleTemporaryFileWhenSaving() throws IOException {
        Files.writeString(directory.resolve("cp.tmp"), "scn=1\ngarbage from a crash");
        FileCheckpointStore store = new FileCheckpointStore(directory.resolve("cp"));

        store.save(7);

        assertThat(store.load()).hasValue(7);
    }

    @Test
    void shouldNameTheFileWhenItHoldsNoCheckpoint() throws IOException {
        Path file = directory.resolve("cp");
        Files.writeString(file, "scn=seven\n");

        assertThatThrownBy(() -> new FileCheckpointStore(file).load())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("checkpoint file holds no SCN: file=" + file)
                .hasMessageContaining("line=scn=seven");
    }

    @Test
    void shouldKeepTheSnapshotCursorWithTheScnWhenSavedInASnapshot() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(directory.resolve("cp"));
        store.save(new io.changegrid.consumer.api.Checkpoint(42, "v1:7:c2hvcA:b3JkZXJz:AQ"));

        assertThat(store.loadCheckpoint())
                .contains(new io.changegrid.consumer.api.Checkpoint(42, "v1:7:c2hvcA:b3JkZXJz:AQ"));
        assertThat(store.load()).hasValue(42);

        store.save(io.changegrid.consumer.api.Checkpoint.at(50));
        assertThat(store.loadCheckpoint()).contains(io.changegrid.consumer.api.Checkpoint.at(50));
    }

    @Test
    void shouldLoadNoCursorWhenTheFileWasWrittenBeforeSnapshots() throws IOException {
        java.nio.file.Files.writeString(directory.resolve("old"), "scn=4294967396\n");

        assertThat(new FileCheckpointStore(directory.resolve("old")).loadCheckpoint())
                .contains(io.changegrid.consumer.api.Checkpoint.at(4294967396L));
    }
}
