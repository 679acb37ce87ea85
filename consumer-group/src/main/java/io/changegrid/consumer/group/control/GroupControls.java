package io.changegrid.consumer.group.control;

import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.function.UnaryOperator;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;

/**
 * The control node of one consumer group, {@code /changegrid/groups/<group>/control}, holding a
 * {@link GroupControl}. Every change is a read, then a write conditional on the version read, tried
 * again on a conflict: two operators (or an operator and a member acknowledging a reset) never
 * overwrite each other's change.
 *
 * <p>Threading: thread-safe; each call is a few ZooKeeper round trips.
 */
public final class GroupControls {

    private static final int ATTEMPTS = 20;

    private final ZooKeeperSession zooKeeper;
    private final String path;

    public GroupControls(ZooKeeperSession zooKeeper, String group) {
        this.zooKeeper = zooKeeper;
        this.path = GroupCheckpoints.GROUPS_ROOT + "/" + group + "/control";
    }

    /** The control node's path. */
    public String path() {
        return path;
    }

    /** What is asked now; {@link GroupControl#NONE} if nothing ever was. */
    public Versioned read() throws IOException, InterruptedException {
        try {
            Stat stat = new Stat();
            byte[] data = zooKeeper.call(zk -> zk.getData(path, false, stat));
            return new Versioned(GroupControl.decode(path, data), stat.getVersion());
        } catch (KeeperException.NoNodeException e) {
            return new Versioned(GroupControl.NONE, -1);
        } catch (KeeperException e) {
            throw new IOException(
                    "group control not read: path=" + path + ", error=" + e.getMessage(), e);
        }
    }

    /**
     * Applies {@code change} to the node as it is, with a version-checked write.
     *
     * @return the control written and the node's new version; the node as read if the change
     *     changes nothing
     * @throws IOException if ZooKeeper fails, or the node kept changing under this call
     */
    public Versioned update(UnaryOperator<GroupControl> change)
            throws IOException, InterruptedException {
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Versioned now = read();
                GroupControl next = change.apply(now.control());
                if (next.equals(now.control())) {
                    return now; // nothing to write (a node never written stays absent)
                }
                byte[] bytes = next.encode();
                try {
                    if (now.version() < 0) {
                        zooKeeper.createPath(path.substring(0, path.lastIndexOf('/')));
                        zooKeeper.call(
                                zk ->
                                        zk.create(
                                                path,
                                                bytes,
                                                ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                                CreateMode.PERSISTENT));
                        return new Versioned(next, 0);
                    }
                    Stat stat = zooKeeper.call(zk -> zk.setData(path, bytes, now.version()));
                    return new Versioned(next, stat.getVersion());
                } catch (KeeperException.NodeExistsException
                        | KeeperException.BadVersionException e) {
                    // Someone else changed it first: apply the change to what they wrote.
                }
            }
            throw new IOException(
                    "group control kept changing, not written: path="
                            + path
                            + ", attempts="
                            + ATTEMPTS);
        } catch (KeeperException e) {
            throw new IOException(
                    "group control not written: path=" + path + ", error=" + e.getMessage(), e);
        }
    }

    /**
     * A control and the node version it was read at or written as; -1 if the node does not exist.
     */
    public record Versioned(GroupControl control, int version) {}
}
