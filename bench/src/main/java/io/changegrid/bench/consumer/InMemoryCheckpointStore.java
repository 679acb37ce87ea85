package io.changegrid.bench.consumer;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A checkpoint kept in memory, with its snapshot cursor: the measuring consumers start from the
 * oldest event (or a snapshot) every run and measure delivery, not the disk. It keeps the relays'
 * timeline like every store, so a measuring consumer restarted on a relay of another timeline stops
 * as a real one would.
 */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private volatile Checkpoint checkpoint;
    private volatile String timeline;
    private volatile String adopted;

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
        save(Checkpoint.at(checkpointScn));
    }

    @Override
    public void save(Checkpoint saved) {
        if (adopted != null) {
            timeline = adopted;
        }
        checkpoint = saved;
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return true;
    }

    @Override
    public Optional<String> loadTimeline() {
        return Optional.ofNullable(timeline);
    }

    /** Saved with the next checkpoint, as a durable store does. */
    @Override
    public void adoptTimeline(String learnt) {
        adopted = learnt;
    }
}
