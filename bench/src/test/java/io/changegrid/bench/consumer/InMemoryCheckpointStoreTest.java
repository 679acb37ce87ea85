package io.changegrid.bench.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InMemoryCheckpointStoreTest {

    @Test
    void shouldKeepTheTimelineFromTheSaveAfterItWasLearnt() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.adoptTimeline("mariadb-gtid:domain=0");
        assertThat(store.loadTimeline()).as("not before a save").isEmpty();

        store.save(4_611_686_018_427_388_000L);

        assertThat(store.load()).hasValue(4_611_686_018_427_388_000L);
        assertThat(store.loadTimeline()).hasValue("mariadb-gtid:domain=0");
    }
}
