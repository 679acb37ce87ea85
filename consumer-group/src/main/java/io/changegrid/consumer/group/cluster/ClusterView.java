package io.changegrid.consumer.group.cluster;

import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.util.ArrayList;
import java.util.List;
import org.apache.helix.HelixAdmin;
import org.apache.helix.HelixDataAccessor;
import org.apache.helix.HelixManager;
import org.apache.helix.HelixManagerFactory;
import org.apache.helix.InstanceType;
import org.apache.helix.PropertyKey;
import org.apache.helix.manager.zk.ZKHelixAdmin;
import org.apache.helix.model.IdealState;
import org.apache.helix.model.LiveInstance;
import org.apache.zookeeper.KeeperException;

/**
 * Reads a consumer group's assignment from ZooKeeper as a Helix spectator, for operators (the
 * {@code consumer cluster status} command) and tests. It joins nothing and changes nothing.
 *
 * <p>Threading: {@link #read} from any thread.
 */
public final class ClusterView implements AutoCloseable {

    private final String group;
    private final HelixManager spectator;

    private ClusterView(String group, HelixManager spectator) {
        this.group = group;
        this.spectator = spectator;
    }

    /**
     * Connects to the group's cluster.
     *
     * @throws IllegalStateException if the group does not exist
     * @throws Exception if Helix cannot connect
     */
    public static ClusterView connect(String zooKeeper, String group) throws Exception {
        String cluster = GroupLayout.clusterName(group);
        HelixAdmin admin = new ZKHelixAdmin.Builder().setZkAddress(zooKeeper).build();
        try {
            if (!admin.getClusters().contains(cluster)) {
                throw new IllegalStateException(
                        "no such consumer group: zookeeper=" + zooKeeper + ", group=" + group);
            }
        } finally {
            admin.close();
        }
        HelixManager spectator =
                HelixManagerFactory.getZKHelixManager(
                        cluster,
                        "view-" + ProcessHandle.current().pid() + "-" + System.nanoTime(),
                        InstanceType.SPECTATOR,
                        zooKeeper);
        try {
            spectator.connect();
        } catch (Exception | Error e) {
            spectator.disconnect(); // a half-made connection keeps its ZooKeeper client open
            throw e;
        }
        return new ClusterView(group, spectator);
    }

    /**
     * The consumer groups set up in the ZooKeeper of {@code zooKeeper}, sorted by name: the Helix
     * clusters at its root named as {@link GroupLayout} names a group's.
     */
    public static List<String> groups(ZooKeeperSession zooKeeper)
            throws KeeperException, InterruptedException {
        List<String> groups = new ArrayList<>();
        for (String child : zooKeeper.call(zk -> zk.getChildren("/", false))) {
            if (child.startsWith(GroupLayout.CLUSTER_PREFIX)
                    && zooKeeper.call(zk -> zk.exists("/" + child + "/IDEALSTATES", false))
                            != null) {
                groups.add(child.substring(GroupLayout.CLUSTER_PREFIX.length()));
            }
        }
        groups.sort(null);
        return groups;
    }

    /** The assignment now. */
    public GroupAssignment read() {
        HelixDataAccessor data = spectator.getHelixDataAccessor();
        PropertyKey.Builder keys = data.keyBuilder();
        IdealState ideal = data.getProperty(keys.idealStates(GroupLayout.RESOURCE));
        LiveInstance leader = data.getProperty(keys.controllerLeader());
        CurrentStates now = CurrentStates.read(data);
        List<GroupAssignment.Member> members = new ArrayList<>();
        for (CurrentStates.Member member : now.live()) {
            members.add(new GroupAssignment.Member(member.instance(), member.statusUrl()));
        }
        String leaderName = leader == null ? null : leader.getInstanceName();
        if (leaderName != null && leaderName.endsWith("-controller")) {
            leaderName = leaderName.substring(0, leaderName.length() - "-controller".length());
        }
        return new GroupAssignment(
                group,
                ideal == null ? 0 : ideal.getNumPartitions(),
                now.running(),
                leaderName,
                members,
                now.owners());
    }

    @Override
    public void close() {
        spectator.disconnect();
    }
}
