package io.changegrid.consumer.group;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.CheckpointingCallback;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The checkpoint of an owned partition whose callback keeps its own ({@link
 * CheckpointingCallback}): the callback's checkpoint, written with the data and therefore never
 * behind or ahead of it, is the partition's one record. The partition resumes from it and every
 * save goes to it alone.
 *
 * <p>The group's ZooKeeper node then holds what the group needs and nothing more: the owner and its
 * epoch, written by the claim. It is read first on load, so a member that a newer owner claimed the
 * partition from fails to start ({@link
 * io.changegrid.consumer.group.checkpoint.CheckpointFencedException}); after that the callback
 * carries the epoch into its own writes, which is where a stale owner is refused. The node's SCN is
 * not moved: the owner's status endpoint reports the partition's checkpoint. The relays' timeline
 * is the callback's too: kept with its checkpoint, and read from it.
 *
 * <p>Threading: as {@link CheckpointStore}: never called concurrently.
 */
final class CallbackCheckpointStore implements CheckpointStore {

    private final CheckpointStore callback;
    private final CheckpointStore group;

    CallbackCheckpointStore(CheckpointStore callback, CheckpointStore group) {
        this.callback = callback;
        this.group = group;
    }

    /**
     * @throws io.changegrid.consumer.group.checkpoint.CheckpointFencedException if a newer owner
     *     claimed the partition
     */
    @Override
    public OptionalLong load() throws IOException {
        group.load(); // for the fence only: the node's SCN is not this partition's checkpoint
        return callback.load();
    }

    @Override
    public void save(long scn) throws IOException {
        callback.save(scn);
    }

    /**
     * @throws io.changegrid.consumer.group.checkpoint.CheckpointFencedException if a newer owner
     *     claimed the partition
     */
    @Override
    public Optional<Checkpoint> loadCheckpoint() throws IOException {
        group.load(); // the fence, as in load()
        return callback.loadCheckpoint();
    }

    @Override
    public Optional<String> loadTimeline() throws IOException {
        return callback.loadTimeline();
    }

    @Override
    public void adoptTimeline(String timeline) {
        callback.adoptTimeline(timeline);
    }

    @Override
    public void save(Checkpoint checkpoint) throws IOException {
        callback.save(checkpoint);
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return callback.keepsSnapshotCursor();
    }

    @Override
    public String toString() {
        return "CallbackCheckpointStore[callback=" + callback + ", fence=" + group + "]";
    }
}
