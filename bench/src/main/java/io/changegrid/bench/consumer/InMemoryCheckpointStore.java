package io.changegrid.bench.consumer;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A checkpoint kept in memory, with its snapshot cursor: the measuring consumers start from the
 * oldest event (or a snapshot) every run and measure delivery, not the disk.
 */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private volatile Checkpoint checkpoint;

    @Override
    public OptionalLong load() {
        Checkpoint saved = checkpoint;
        return saved == null ? OptionalLong.empty() : OptionalLong.of(saved.scn());
    }

    @Override
    public Optional<Checkpoint> loadCheckpoint() {
        return Optional.ofNullable(checkpoint);
    }

    @Override
    public void save(long checkpointScn) {
        checkpoint = Checkpoint.at(checkpointScn);
    }

    @Override
    public void save(Checkpoint saved) {
        checkpoint = saved;
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return true;
    }
}
