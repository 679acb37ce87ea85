package io.changegrid.bench.consumer;

import io.changegrid.consumer.api.CheckpointStore;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A checkpoint kept in memory: the measuring consumers start from the oldest event every run and
 * measure delivery, not the disk. It keeps the relays' timeline like every store, so a measuring
 * consumer restarted on a relay of another timeline stops as a real one would.
 */
public final class InMemoryCheckpointStore implements CheckpointStore {

    private volatile long scn = -1;
    private volatile String timeline;
    private volatile String adopted;

    @Override
    public OptionalLong load() {
        return scn < 0 ? OptionalLong.empty() : OptionalLong.of(scn);
    }

    @Override
    public void save(long checkpointScn) {
        if (adopted != null) {
            timeline = adopted;
        }
        scn = checkpointScn;
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
