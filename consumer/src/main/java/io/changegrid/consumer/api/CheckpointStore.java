package io.changegrid.consumer.api;

import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a consumer keeps its checkpoint: the SCN of the last transaction (or heartbeat) its
 * callback fully processed. The consumer loads it once at start and resumes right after it, and
 * saves it after every batch. Plug in another store to keep the checkpoint next to the callback's
 * data (in the same target database transaction, for exactly-once).
 *
 * <p><b>Snapshots.</b> A consumer that snapshots (docs/bootstrap.md) keeps a snapshot cursor with
 * its SCN, as one {@link Checkpoint}: a store that can, overrides {@link #loadCheckpoint}, {@link
 * #save(Checkpoint)} and {@link #keepsSnapshotCursor} and writes both in one atomic step. A store
 * that only implements the SCN methods still serves a consumer that never snapshots; one that
 * snapshots refuses to start with it.
 *
 * <p>Threading: {@link #load} is called by the thread that starts the consumer, {@link #save} only
 * on the consumer's dispatcher thread; never concurrently.
 */
public interface CheckpointStore {

    /**
     * The saved checkpoint.
     *
     * @return the SCN, or empty if none was saved yet (the consumer then starts at the oldest
     *     transaction the relay holds)
     * @throws IOException if the store cannot be read or holds something that is not a checkpoint;
     *     the consumer does not start
     */
    OptionalLong load() throws IOException;

    /**
     * Saves a checkpoint durably: when this returns, a crash right after must not lose it.
     *
     * @throws IOException if it could not be saved; the consumer stops with the error
     */
    void save(long scn) throws IOException;

    /**
     * The identity of the timeline the saved checkpoint is on (the relays' {@code
     * X-Changegrid-Timeline}, docs/consumer.md): the consumer stops rather than continue the
     * checkpoint on a relay serving another timeline, whose SCNs mean other transactions.
     *
     * @return the timeline, or empty when none was saved or this store keeps none; the consumer
     *     then takes the timeline of the first relay that answers
     * @throws IOException if the store cannot be read
     */
    default Optional<String> loadTimeline() throws IOException {
        return Optional.empty();
    }

    /**
     * The timeline the checkpoints saved from now on are on, learnt from the first relay that
     * answered a consumer whose checkpoint named none. A store that keeps it saves it with the next
     * {@link #save}; the default keeps none. Called on the consumer's puller thread, before any
     * checkpoint of that timeline is saved.
     */
    default void adoptTimeline(String timeline) {}

    /**
     * The saved checkpoint with its snapshot cursor. The default reads {@link #load()}: no cursor.
     *
     * @return the checkpoint, or empty if none was saved yet
     * @throws IOException as {@link #load()}
     */
    default Optional<Checkpoint> loadCheckpoint() throws IOException {
        OptionalLong scn = load();
        return scn.isPresent() ? Optional.of(Checkpoint.at(scn.getAsLong())) : Optional.empty();
    }

    /**
     * Saves the SCN and the snapshot cursor durably and atomically: a crash leaves the old pair or
     * the new one. The default saves a checkpoint without a cursor with {@link #save(long)} and
     * refuses one with a cursor.
     *
     * @throws IOException if it could not be saved, or this store keeps no cursor
     */
    default void save(Checkpoint checkpoint) throws IOException {
        if (checkpoint.inSnapshot()) {
            throw new IOException(
                    "checkpoint store keeps no snapshot cursor: store="
                            + this
                            + ", checkpoint="
                            + checkpoint);
        }
        save(checkpoint.scn());
    }

    /**
     * Whether {@link #save(Checkpoint)} keeps a snapshot cursor; a snapshotting consumer needs it.
     */
    default boolean keepsSnapshotCursor() {
        return false;
    }
}
