package io.changegrid.consumer.group;

import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.CheckpointingCallback;
import java.io.IOException;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint of an owned partition whose callback keeps its own ({@link
 * CheckpointingCallback}): the partition resumes from the callback's checkpoint, which is written
 * with the data and therefore never behind or ahead of it; the ZooKeeper checkpoint is read first
 * (a newer owner's node fences this one before anything starts) and saved after the callback's, so
 * it never runs ahead of the data and status and lag still read it.
 *
 * <p>Threading: as {@link CheckpointStore}: never called concurrently.
 */
final class CallbackCheckpointStore implements CheckpointStore {

    private static final Logger LOG = LoggerFactory.getLogger(CallbackCheckpointStore.class);

    private final CheckpointStore callback;
    private final CheckpointStore group;
    private final int partition;

    CallbackCheckpointStore(CheckpointStore callback, CheckpointStore group, int partition) {
        this.callback = callback;
        this.group = group;
        this.partition = partition;
    }

    @Override
    public OptionalLong load() throws IOException {
        OptionalLong inGroup = group.load();
        OptionalLong own = callback.load();
        if (!own.equals(inGroup)) {
            // Normal after a crash between the two saves, or when the group's checkpoint moved on
            // heartbeats alone; the callback's is the one that matches its data.
            LOG.info(
                    "partition resumes from its callback's checkpoint: partition={},"
                            + " callbackCheckpoint={}, groupCheckpoint={}",
                    partition,
                    own.isPresent() ? own.getAsLong() : "none",
                    inGroup.isPresent() ? inGroup.getAsLong() : "none");
        }
        return own;
    }

    @Override
    public void save(long scn) throws IOException {
        callback.save(scn);
        group.save(scn);
    }

    @Override
    public String toString() {
        return "CallbackCheckpointStore[callback=" + callback + ", group=" + group + "]";
    }
}
