package io.changegrid.bench.cluster;

import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.checkpoint.PartitionCheckpoint;
import io.changegrid.consumer.group.cluster.ClusterView;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Watches a group from ZooKeeper: who owns what, and each partition's checkpoint. */
final class GroupProbe implements AutoCloseable {

    private final ClusterView view;
    private final ZooKeeperSession session;
    private final GroupCheckpoints checkpoints;
    private final int partitions;

    GroupProbe(String zooKeeper, String group, int partitions) throws Exception {
        this.view = ClusterView.connect(zooKeeper, group);
        try {
            this.session = ZooKeeperSession.open(zooKeeper, Duration.ofSeconds(10));
        } catch (Exception | Error e) {
            view.close();
            throw e;
        }
        this.checkpoints = new GroupCheckpoints(session, group);
        this.partitions = partitions;
    }

    GroupAssignment assignment() {
        return view.read();
    }

    /** Every partition's node; a partition never claimed is missing. */
    Map<Integer, PartitionCheckpoint> checkpoints() throws Exception {
        Map<Integer, PartitionCheckpoint> all = new TreeMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            int key = partition;
            checkpoints.read(partition).ifPresent(node -> all.put(key, node));
        }
        return all;
    }

    /** Whether every partition's checkpoint reached {@code scn}. */
    boolean allAtLeast(long scn) throws Exception {
        Map<Integer, PartitionCheckpoint> all = checkpoints();
        return all.size() == partitions
                && all.values().stream().allMatch(node -> node.scn() >= scn);
    }

    /** The partitions {@code instance} owns now. */
    List<Integer> ownedBy(String instance) {
        return assignment().partitionsByMember().getOrDefault(instance, List.of());
    }

    @Override
    public void close() {
        view.close();
        session.close();
    }
}
