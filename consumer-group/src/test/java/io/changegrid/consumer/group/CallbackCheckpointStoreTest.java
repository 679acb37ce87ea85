package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline of a partition whose callback keeps its own checkpoint is the callback's: saved with
 * it, read from it, never from the group's fence.
 */
class CallbackCheckpointStoreTest {

    @TempDir Path directory;

    @Test
    void shouldKeepTheTimelineWithTheCallbacksCheckpointWhenLearntFromTheRelays() throws Exception {
        FileCheckpointStore callback = new FileCheckpointStore(directory.resolve("callback"));
        FileCheckpointStore fence = new FileCheckpointStore(directory.resolve("fence"));
        fence.save(0);
        CallbackCheckpointStore store = new CallbackCheckpointStore(callback, fence);
        assertThat(store.loadTimeline()).isEmpty();

        store.adoptTimeline("mariadb-gtid:domain=0");
        store.save(4_611_686_018_427_388_000L);

        CallbackCheckpointStore restarted =
                new CallbackCheckpointStore(
                        new FileCheckpointStore(directory.resolve("callback")), fence);
        assertThat(restarted.load()).hasValue(4_611_686_018_427_388_000L);
        assertThat(restarted.loadTimeline()).hasValue("mariadb-gtid:domain=0");
        assertThat(fence.loadTimeline()).isEmpty();
    }
}
