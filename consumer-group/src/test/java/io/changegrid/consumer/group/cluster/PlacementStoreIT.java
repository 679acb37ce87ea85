package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.helix.HelixDataAccessor;
import org.apache.helix.manager.zk.ZKHelixDataAccessor;
import org.apache.helix.manager.zk.ZkBaseDataAccessor;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ideal state written only over the version it was computed from, on a real ZooKeeper. */
class PlacementStoreIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @Test
    void shouldRefuseAPlacementComputedFromAnOlderReadingWhenAnotherMemberWroteSince()
            throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        String cluster = GroupLayout.clusterName("versioned");
        GroupClusterSetup.ensure(connect, cluster, 4);
        ZkBaseDataAccessor<ZNRecord> zooKeeper =
                new ZkBaseDataAccessor.Builder<ZNRecord>().setZkAddress(connect).build();
        try {
            HelixDataAccessor data = new ZKHelixDataAccessor(cluster, zooKeeper);
            PlacementStore store = new PlacementStore(data);
            PlacementStore.Reading stale = store.read();
            PlacementStore.Reading fresh = store.read();

            // The member that leads now writes first ...
            assertThat(store.write(fresh, placement("a", "a", "b", "b"), 4)).isTrue();
            // ... and one that still believes it leads, working from the same older reading,
            // may not overwrite it.
            assertThat(store.write(stale, placement("c", "c", "c", "c"), 4)).isFalse();

            PlacementStore.Reading now = store.read();
            assertThat(now.owners()).isEqualTo(placement("a", "a", "b", "b"));
            assertThat(now.version()).isEqualTo(fresh.version() + 1);
            assertThat(store.write(now, placement("c", "c", "c", "c"), 4)).isTrue();
        } finally {
            zooKeeper.close();
        }
    }

    private static SortedMap<Integer, String> placement(String... owners) {
        SortedMap<Integer, String> placement = new TreeMap<>();
        for (int partition = 0; partition < owners.length; partition++) {
            placement.put(partition, owners[partition]);
        }
        return placement;
    }

    @Test
    void shouldReadNoOwnersWhenTheGroupWasNeverPlaced() throws Exception {
        String connect = ZOOKEEPER.zooKeeper().connectString();
        String cluster = GroupLayout.clusterName("fresh");
        GroupClusterSetup.ensure(connect, cluster, 2);
        ZkBaseDataAccessor<ZNRecord> zooKeeper =
                new ZkBaseDataAccessor.Builder<ZNRecord>().setZkAddress(connect).build();
        try {
            PlacementStore.Reading reading =
                    new PlacementStore(new ZKHelixDataAccessor(cluster, zooKeeper)).read();
            assertThat(reading.owners()).isEqualTo(Map.of());
        } finally {
            zooKeeper.close();
        }
    }
}
