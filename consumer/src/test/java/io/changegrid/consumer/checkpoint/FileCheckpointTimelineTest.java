package io.changegrid.consumer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optional {@code timeline=} line of a checkpoint file. */
class FileCheckpointTimelineTest {

    @TempDir Path directory;

    @Test
    void shouldLoadTheTimelineWhenItWasSavedWithTheCheckpoint() throws IOException {
        FileCheckpointStore store = new FileCheckpointStore(directory.resolve("cp"));
        store.adoptTimeline("mariadb-gtid:domain=0");
        store.save(4_611_686_018_427_388_000L);

        FileCheckpointStore reopened = new FileCheckpointStore(directory.resolve("cp"));
        assertThat(reopened.load()).hasValue(4_611_686_018_427_388_000L);
        assertThat(reopened.loadTimeline()).hasValue("mariadb-gtid:domain=0");
        assertThat(Files.readString(directory.resolve("cp")))
                .isEqualTo("scn=4611686018427388000\ntimeline=mariadb-gtid:domain=0\n");
    }

    @Test
    void shouldLoadNoTimelineWhenTheFileIsFromBeforeTimelines() throws IOException {
        Files.writeString(directory.resolve("cp"), "scn=4294967396\n");
        FileCheckpointStore store = new FileCheckpointStore(directory.resolve("cp"));

        assertThat(store.load()).hasValue(4_294_967_396L);
        assertThat(store.loadTimeline()).isEmpty();
    }

    @Test
    void shouldKeepTheLoadedTimelineWhenSavingAgain() throws IOException {
        Files.writeString(directory.resolve("cp"), "scn=5\ntimeline=binlog:server_id=1\n");
        FileCheckpointStore store = new FileCheckpointStore(directory.resolve("cp"));
        store.load();
        store.loadTimeline();

        store.save(9);

        assertThat(Files.readString(directory.resolve("cp")))
                .isEqualTo("scn=9\ntimeline=binlog:server_id=1\n");
    }
}
