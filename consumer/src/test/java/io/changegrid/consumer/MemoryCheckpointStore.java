package io.changegrid.consumer;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;

/** A checkpoint store in memory that remembers every save, for tests. */
public class MemoryCheckpointStore implements CheckpointStore {

    private final List<Long> saves = new CopyOnWriteArrayList<>();
    private final List<Checkpoint> checkpoints = new CopyOnWriteArrayList<>();
    private volatile long scn;
    private volatile String snapshot;
    private volatile boolean saved;
    private volatile IOException failure;

    public MemoryCheckpointStore() {}

    public MemoryCheckpointStore(long scn) {
        this.scn = scn;
        this.saved = true;
    }

    @Override
    public OptionalLong load() {
        return saved ? OptionalLong.of(scn) : OptionalLong.empty();
    }

    @Override
    public Optional<Checkpoint> loadCheckpoint() {
        return saved ? Optional.of(new Checkpoint(scn, snapshot)) : Optional.empty();
    }

    @Override
    public void save(long scn) throws IOException {
        if (failure != null) {
            throw failure;
        }
        this.scn = scn;
        this.saved = true;
        saves.add(scn);
    }

    /**
     * Records the cursor, then saves the SCN through {@link #save(long)} (which tests override).
     */
    @Override
    public void save(Checkpoint checkpoint) throws IOException {
        if (failure != null) {
            throw failure;
        }
        this.snapshot = checkpoint.snapshot();
        checkpoints.add(checkpoint);
        save(checkpoint.scn());
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return true;
    }

    /** Every checkpoint saved, with its snapshot cursor, in order. */
    public List<Checkpoint> checkpoints() {
        return checkpoints;
    }

    /** Makes every later save fail with {@code error}. */
    public void failWith(IOException error) {
        this.failure = error;
    }

    /** Every SCN saved, in order. */
    public List<Long> saves() {
        return saves;
    }

    /** The last SCN saved or given, -1 if none. */
    public long scn() {
        return saved ? scn : -1;
    }
}
