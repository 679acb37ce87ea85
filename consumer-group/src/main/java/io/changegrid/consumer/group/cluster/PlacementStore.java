package io.changegrid.consumer.group.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.helix.AccessOption;
import org.apache.helix.BaseDataAccessor;
import org.apache.helix.HelixDataAccessor;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.apache.helix.zookeeper.zkclient.exception.ZkBadVersionException;
import org.apache.zookeeper.data.Stat;

/**
 * The group's placement as the resource's CUSTOMIZED ideal state holds it ({@code stream_<p> →
 * {owner: LEADER}}), read with the node's version and written only if the node still has that
 * version. A member that wrongly believes it still leads (its controller's session expired a moment
 * ago) and a member that just became leader can both write; with the version check the write made
 * from an older reading fails instead of overwriting a newer placement, and the writer reads again
 * on its next check.
 *
 * <p>Threading: stateless apart from the accessor; any thread.
 */
final class PlacementStore {

    private final BaseDataAccessor<ZNRecord> zooKeeper;
    private final String path;

    PlacementStore(HelixDataAccessor data) {
        this.zooKeeper = data.getBaseDataAccessor();
        this.path = data.keyBuilder().idealStates(GroupLayout.RESOURCE).getPath();
    }

    /**
     * One reading of the ideal state.
     *
     * @param owners the owner of each placed partition
     * @param version the node's version when read
     */
    record Reading(SortedMap<Integer, String> owners, int version, ZNRecord record) {}

    /** The placement now, or null if the resource has no ideal state. */
    Reading read() {
        Stat stat = new Stat();
        ZNRecord record = zooKeeper.get(path, stat, AccessOption.PERSISTENT);
        if (record == null) {
            return null;
        }
        return new Reading(owners(record), stat.getVersion(), record);
    }

    /**
     * Writes {@code placement} over the reading it was computed from.
     *
     * @return false if the ideal state changed since {@code reading} (nothing was written)
     */
    boolean write(Reading reading, SortedMap<Integer, String> placement, int partitions) {
        ZNRecord record = new ZNRecord(reading.record());
        for (int partition = 0; partition < partitions; partition++) {
            Map<String, String> state = new TreeMap<>();
            String owner = placement.get(partition);
            if (owner != null) {
                state.put(owner, GroupLayout.OWNED);
            }
            record.setMapField(GroupLayout.partitionName(partition), state);
        }
        try {
            return zooKeeper.set(path, record, reading.version(), AccessOption.PERSISTENT);
        } catch (ZkBadVersionException e) {
            // Also when a retry after a lost connection finds its own first attempt applied: the
            // next reading then equals the placement and nothing more is written.
            return false;
        }
    }

    /** The owner of each partition in an ideal state record. */
    static SortedMap<Integer, String> owners(ZNRecord record) {
        Map<Integer, String> owners = new HashMap<>();
        for (Map.Entry<String, Map<String, String>> entry : record.getMapFields().entrySet()) {
            for (Map.Entry<String, String> replica : entry.getValue().entrySet()) {
                if (GroupLayout.OWNED.equals(replica.getValue())) {
                    owners.put(GroupLayout.partitionIndex(entry.getKey()), replica.getKey());
                }
            }
        }
        return new TreeMap<>(owners);
    }
}
