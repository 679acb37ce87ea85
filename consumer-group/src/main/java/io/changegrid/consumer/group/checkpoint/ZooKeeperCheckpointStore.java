package io.changegrid.consumer.group.checkpoint;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * One partition's checkpoint in ZooKeeper, saved by the member that holds ownership epoch {@link
 * #epoch()} (see {@link GroupCheckpoints}). Every save is a write conditional on the node's version
 * as this store last saw it; when that fails the node is read back, and if its epoch is larger than
 * this store's the save fails with {@link CheckpointFencedException}: a member that lost the
 * partition, even one that has not noticed yet (a long pause, a cut network), can never move the
 * checkpoint again.
 *
 * <p>The relays' timeline (docs/consumer.md, "When the source server changes") is kept in the same
 * node ({@link PartitionCheckpoint#timeline()}), written with every save once known, so the next
 * owner of the partition refuses a relay on another timeline too.
 *
 * <p>Threading: like every {@link CheckpointStore}, load and save are never called concurrently;
 * {@link #adoptTimeline} may come from the puller's thread and only hands the value to the next
 * save.
 */
public final class ZooKeeperCheckpointStore implements CheckpointStore {

    private static final int UNKNOWN = -2;

    private final ZooKeeperSession zooKeeper;
    private final String path;
    private final int partition;
    private final long epoch;
    private final String owner;
    private final LongSupplier clock;
    private int version = UNKNOWN;

    /** The timeline saves write: the node's, or the one learnt from the relays. */
    private volatile String timeline;

    ZooKeeperCheckpointStore(
            ZooKeeperSession zooKeeper,
            String path,
            int partition,
            long epoch,
            String owner,
            LongSupplier clock) {
        this.zooKeeper = zooKeeper;
        this.path = path;
        this.partition = partition;
        this.epoch = epoch;
        this.owner = owner;
        this.clock = clock;
    }

    /** The ownership epoch this store saves under: what a target transaction carries as fence. */
    public long epoch() {
        return epoch;
    }

    public int partition() {
        return partition;
    }

    /**
     * @throws CheckpointFencedException if another member claimed the partition since
     */
    @Override
    public OptionalLong load() throws IOException {
        PartitionCheckpoint current = readChecked();
        return current.scn() < 0 ? OptionalLong.empty() : OptionalLong.of(current.scn());
    }

    /**
     * The checkpoint with its snapshot cursor, both from the one node.
     *
     * @throws CheckpointFencedException if another member claimed the partition since
     */
    @Override
    public Optional<Checkpoint> loadCheckpoint() throws IOException {
        PartitionCheckpoint current = readChecked();
        return current.scn() < 0 && current.snapshot() == null
                ? Optional.empty()
                : Optional.of(new Checkpoint(current.scn(), current.snapshot()));
    }

    /**
     * The node's timeline.
     *
     * @throws CheckpointFencedException if another member claimed the partition since
     */
    @Override
    public Optional<String> loadTimeline() throws IOException {
        return Optional.ofNullable(readChecked().timeline());
    }

    @Override
    public void adoptTimeline(String adopted) {
        timeline = adopted;
    }

    /**
     * @throws CheckpointFencedException if another member claimed the partition since this store's
     *     epoch; nothing was written
     */
    @Override
    public void save(long scn) throws IOException {
        save(Checkpoint.at(scn));
    }

    /**
     * Saves the SCN and the snapshot cursor in one conditional write of the node.
     *
     * @throws CheckpointFencedException if another member claimed the partition since this store's
     *     epoch; nothing was written
     */
    @Override
    public void save(Checkpoint checkpoint) throws IOException {
        long scn = checkpoint.scn();
        if (version == UNKNOWN) {
            readChecked();
        }
        byte[] bytes =
                new PartitionCheckpoint(
                                scn,
                                epoch,
                                owner,
                                clock.getAsLong(),
                                checkpoint.snapshot(),
                                timeline)
                        .encode();
        try {
            for (int attempt = 1; ; attempt++) {
                int expected = version;
                try {
                    Stat stat = zooKeeper.call(zk -> zk.setData(path, bytes, expected));
                    version = stat.getVersion();
                    return;
                } catch (KeeperException.BadVersionException e) {
                    Stat stat = new Stat();
                    byte[] data = zooKeeper.call(zk -> zk.getData(path, false, stat));
                    if (Arrays.equals(data, bytes)) {
                        // This write was applied before a lost connection made the session retry.
                        version = stat.getVersion();
                        return;
                    }
                    PartitionCheckpoint current = PartitionCheckpoint.decode(path, data);
                    checkEpoch(current);
                    if (attempt == 2) {
                        throw new IOException(
                                "checkpoint node keeps changing under the same epoch: path="
                                        + path
                                        + ", epoch="
                                        + epoch
                                        + ", current="
                                        + current);
                    }
                    // Same epoch: an earlier save of this store whose answer was lost.
                    version = stat.getVersion();
                }
            }
        } catch (KeeperException e) {
            throw new IOException(
                    "checkpoint not saved in ZooKeeper: path="
                            + path
                            + ", scn="
                            + scn
                            + ", error="
                            + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted saving the checkpoint: path=" + path, e);
        }
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return true;
    }

    private PartitionCheckpoint readChecked() throws IOException {
        Stat stat = new Stat();
        byte[] data;
        try {
            data = zooKeeper.call(zk -> zk.getData(path, false, stat));
        } catch (KeeperException.NoNodeException e) {
            throw new IOException(
                    "partition checkpoint node missing, the partition was never claimed: path="
                            + path,
                    e);
        } catch (KeeperException e) {
            throw new IOException(
                    "checkpoint not read from ZooKeeper: path="
                            + path
                            + ", error="
                            + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted reading the checkpoint: path=" + path, e);
        }
        PartitionCheckpoint current = PartitionCheckpoint.decode(path, data);
        checkEpoch(current);
        version = stat.getVersion();
        if (current.timeline() != null) {
            timeline = current.timeline();
        }
        return current;
    }

    private void checkEpoch(PartitionCheckpoint current) throws IOException {
        if (current.epoch() > epoch) {
            throw new CheckpointFencedException(
                    path, partition, epoch, current.epoch(), current.owner());
        }
        if (current.epoch() < epoch) {
            throw new IOException(
                    "checkpoint node holds an older epoch than its owner claimed: path="
                            + path
                            + ", epoch="
                            + epoch
                            + ", nodeEpoch="
                            + current.epoch());
        }
    }

    @Override
    public String toString() {
        return "ZooKeeperCheckpointStore[" + path + ", epoch=" + epoch + "]";
    }
}
