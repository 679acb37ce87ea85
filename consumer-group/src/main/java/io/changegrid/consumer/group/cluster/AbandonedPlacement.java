package io.changegrid.consumer.group.cluster;

import java.util.TreeMap;
import org.apache.helix.manager.zk.ZKHelixDataAccessor;
import org.apache.helix.manager.zk.ZkBaseDataAccessor;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Withdraws the placement a stopped group left behind, before a member joins it. The ideal state
 * outlives the members it names; when the first of them comes back under the same name, the
 * controller it brings up would hand it its old partitions at once, before any placement keeper
 * could apply the quorum. So a joining member that finds no leading controller and no partition
 * owned by a live member writes the placement empty first; the leader's {@link PlacementKeeper}
 * places anew once the quorum is there.
 *
 * <p>A group that still runs is left alone: it has a leader, or a live member owning a partition.
 */
final class AbandonedPlacement {

    private static final Logger LOG = LoggerFactory.getLogger(AbandonedPlacement.class);
    private static final int ATTEMPTS = 3;

    private AbandonedPlacement() {}

    /** Withdraws the group's placement if the group does not run; see the class comment. */
    static void withdraw(String zooKeeper, String cluster, int partitions) {
        ZkBaseDataAccessor<ZNRecord> connection =
                new ZkBaseDataAccessor.Builder<ZNRecord>().setZkAddress(zooKeeper).build();
        try {
            ZKHelixDataAccessor data = new ZKHelixDataAccessor(cluster, connection);
            PlacementStore store = new PlacementStore(data);
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                CurrentStates now = CurrentStates.read(data);
                PlacementStore.Reading ideal = store.read();
                if (ideal == null
                        || ideal.owners().isEmpty()
                        || now.leaderLive()
                        || now.running()) {
                    return;
                }
                if (store.write(ideal, new TreeMap<>(), partitions)) {
                    LOG.info(
                            "placement of a stopped group withdrawn before joining it: cluster={},"
                                    + " previousOwners={}",
                            cluster,
                            ideal.owners());
                    return;
                }
                // Another member joining at the same moment wrote first: look again.
            }
        } finally {
            connection.close();
        }
    }
}
