package io.changegrid.console.grid;

import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.cluster.ClusterView;
import io.changegrid.consumer.group.control.GroupControls;
import io.changegrid.consumer.group.report.GroupReport;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the grid from ZooKeeper: the relays registered under {@link RelayRegistration#RELAYS_ROOT},
 * and every consumer group with its assignment, checkpoints, its members' reports and its control
 * node. A Helix spectator per group is kept open between reads (connecting one costs far more than
 * a read) and closed when the group disappears.
 *
 * <p>Threading: one thread at a time calls {@link #read} (the sampler's).
 */
public final class GridReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GridReader.class);

    private final ZooKeeperSession zooKeeper;
    private final GroupReport reports;
    private final Map<String, ClusterView> views = new HashMap<>();

    public GridReader(ZooKeeperSession zooKeeper, GroupReport reports) {
        this.zooKeeper = zooKeeper;
        this.reports = reports;
    }

    /** The grid now; a ZooKeeper failure is in the snapshot's error, not thrown. */
    public GridSnapshot read() throws InterruptedException {
        List<RelayRegistration> relays;
        List<String> groups;
        try {
            relays = relays();
            groups = ClusterView.groups(zooKeeper);
        } catch (KeeperException e) {
            return new GridSnapshot(
                    List.of(), List.of(), "ZooKeeper not readable: " + e.getMessage());
        }
        Set<String> present = Set.copyOf(groups);
        views.entrySet()
                .removeIf(
                        view -> {
                            if (present.contains(view.getKey())) {
                                return false;
                            }
                            view.getValue().close();
                            return true;
                        });
        List<GroupSnapshot> snapshots = new ArrayList<>();
        for (String group : groups) {
            snapshots.add(group(group));
        }
        return new GridSnapshot(relays, snapshots, null);
    }

    private List<RelayRegistration> relays() throws KeeperException, InterruptedException {
        List<RelayRegistration> found = new ArrayList<>();
        List<String> sources;
        try {
            sources = zooKeeper.call(zk -> zk.getChildren(RelayRegistration.RELAYS_ROOT, false));
        } catch (KeeperException.NoNodeException e) {
            return found; // no relay ever registered
        }
        for (String source : sources) {
            String sourcePath = RelayRegistration.RELAYS_ROOT + "/" + source;
            List<String> names;
            try {
                names = zooKeeper.call(zk -> zk.getChildren(sourcePath, false));
            } catch (KeeperException.NoNodeException e) {
                continue;
            }
            for (String name : names) {
                String path = sourcePath + "/" + name;
                try {
                    found.add(
                            RelayRegistration.decode(
                                    path, zooKeeper.call(zk -> zk.getData(path, false, null))));
                } catch (KeeperException.NoNodeException e) {
                    // Deregistered between listing and reading.
                } catch (IOException e) {
                    LOG.warn("relay registration skipped: {}", e.getMessage());
                }
            }
        }
        found.sort(
                Comparator.comparingInt(RelayRegistration::sourceId)
                        .thenComparing(RelayRegistration::endpoint));
        return found;
    }

    private GroupSnapshot group(String group) throws InterruptedException {
        GroupControls controls = new GroupControls(zooKeeper, group);
        try {
            ClusterView view = views.get(group);
            if (view == null) {
                view = ClusterView.connect(zooKeeper.connectString(), group);
                views.put(group, view);
            }
            return new GroupSnapshot(
                    group,
                    reports.read(view.read(), new GroupCheckpoints(zooKeeper, group)),
                    controls.read().control(),
                    null);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            ClusterView broken = views.remove(group);
            if (broken != null) {
                broken.close();
            }
            LOG.warn("consumer group not read: group={}, error={}", group, e.toString());
            return new GroupSnapshot(group, null, null, e.getMessage());
        }
    }

    @Override
    public void close() {
        views.values().forEach(ClusterView::close);
        views.clear();
    }
}
