package io.changegrid.bench.consumer;

import io.changegrid.consumer.api.CheckpointStore;
import java.util.OptionalLong;

/**
 * A checkpoint kept in memory: the measuring consumers start from the oldest event every run and
 * measure delivery, not the disk.
 */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private volatile long scn = -1;

    @Override
    public OptionalLong load() {
        return scn < 0 ? OptionalLong.empty() : OptionalLong.of(scn);
    }

    @Override
    public void save(long checkpointScn) {
        scn = checkpointScn;
    }
}
