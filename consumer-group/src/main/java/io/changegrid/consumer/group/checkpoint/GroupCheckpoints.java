package io.changegrid.consumer.group.checkpoint;

import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The checkpoints and ownership epochs of one consumer group's partitions, one ZooKeeper node each:
 * {@code /changegrid/groups/<group>/partitions/<p>} holding a {@link PartitionCheckpoint}.
 *
 * <p>A member that gains a partition first {@linkplain #claim claims} it: the node's epoch goes up
 * by one, with a conditional write on the node's version, so two claims can never get the same
 * epoch. It then saves through {@link #store}, whose writes are conditional on the version it last
 * wrote and fail with {@link CheckpointFencedException} once anyone claimed after it.
 *
 * <p>Threading: thread-safe; the session serializes nothing, each call is one or a few ZooKeeper
 * round trips.
 */
public final class GroupCheckpoints {

    /** Where every group's nodes live. */
    public static final String GROUPS_ROOT = "/changegrid/groups";

    private final ZooKeeperSession zooKeeper;
    private final String group;
    private final String partitionsPath;
    private final LongSupplier clock;
    private volatile boolean created;

    /** The checkpoints of {@code group}, read and written through {@code zooKeeper}. */
    public GroupCheckpoints(ZooKeeperSession zooKeeper, String group) {
        this(zooKeeper, group, System::currentTimeMillis);
    }

    GroupCheckpoints(ZooKeeperSession zooKeeper, String group, LongSupplier clock) {
        this.zooKeeper = zooKeeper;
        this.group = group;
        this.partitionsPath = GROUPS_ROOT + "/" + group + "/partitions";
        this.clock = clock;
    }

    /** The node of {@code partition}. */
    public String path(int partition) {
        return partitionsPath + "/" + partition;
    }

    public String group() {
        return group;
    }

    /**
     * Makes {@code owner} the partition's owner with a new epoch, larger than every earlier one;
     * the checkpoint stays.
     *
     * @return the new epoch
     * @throws IOException if ZooKeeper could not be written within twice the session timeout
     */
    public long claim(int partition, String owner) throws IOException, InterruptedException {
        String path = path(partition);
        try {
            ensureParent();
            while (true) {
                Stat stat = new Stat();
                byte[] data;
                try {
                    data = zooKeeper.call(zk -> zk.getData(path, false, stat));
                } catch (KeeperException.NoNodeException e) {
                    PartitionCheckpoint first =
                            new PartitionCheckpoint(-1, 1, owner, clock.getAsLong());
                    if (create(path, first.encode())) {
                        return first.epoch();
                    }
                    continue;
                }
                PartitionCheckpoint next =
                        PartitionCheckpoint.decode(path, data).claimedBy(owner, clock.getAsLong());
                byte[] bytes = next.encode();
                try {
                    zooKeeper.call(zk -> zk.setData(path, bytes, stat.getVersion()));
                    return next.epoch();
                } catch (KeeperException.BadVersionException e) {
                    // Another claim or save came first, or this very write was applied before a
                    // lost connection made the session retry it.
                    if (Arrays.equals(readBytes(path), bytes)) {
                        return next.epoch();
                    }
                }
            }
        } catch (KeeperException e) {
            throw new IOException(
                    "partition not claimed in ZooKeeper: path="
                            + path
                            + ", owner="
                            + owner
                            + ", error="
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * The store {@code owner} saves the partition's checkpoint through while it holds {@code
     * epoch}.
     */
    public ZooKeeperCheckpointStore store(int partition, long epoch, String owner) {
        return new ZooKeeperCheckpointStore(
                zooKeeper, path(partition), partition, epoch, owner, clock);
    }

    /**
     * The partition's node as it is now.
     *
     * @return empty if no member ever claimed the partition
     */
    public Optional<PartitionCheckpoint> read(int partition)
            throws IOException, InterruptedException {
        String path = path(partition);
        try {
            byte[] data = zooKeeper.call(zk -> zk.getData(path, false, null));
            return Optional.of(PartitionCheckpoint.decode(path, data));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (KeeperException e) {
            throw new IOException(
                    "partition checkpoint not read: path=" + path + ", error=" + e.getMessage(), e);
        }
    }

    private byte[] readBytes(String path) throws KeeperException, InterruptedException {
        return zooKeeper.call(zk -> zk.getData(path, false, null));
    }

    /** Creates the node; false if it exists and was not made by this call. */
    private boolean create(String path, byte[] data) throws KeeperException, InterruptedException {
        try {
            zooKeeper.call(zk -> zk.create(path, data, zooKeeper.acl(path), CreateMode.PERSISTENT));
            return true;
        } catch (KeeperException.NodeExistsException e) {
            // Either another member's claim, or this create applied before a lost connection.
            return Arrays.equals(readBytes(path), data);
        }
    }

    private void ensureParent() throws KeeperException, InterruptedException {
        if (!created) {
            zooKeeper.createPath(partitionsPath);
            created = true;
        }
    }

    @Override
    public String toString() {
        return "GroupCheckpoints[" + partitionsPath + "]";
    }
}
