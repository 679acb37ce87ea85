package io.changegrid.consumer.group.cluster;

/**
 * How a consumer group maps onto Helix: cluster {@code changegrid-<group>} (a ZooKeeper node of
 * that name at the connect string's root), one resource {@value #RESOURCE} with a partition {@code
 * stream_<n>} per subscription partition, CUSTOMIZED (placed by {@link PlacementKeeper}), state
 * model {@value #STATE_MODEL}; the member where a partition is {@value #OWNED} owns it.
 */
final class GroupLayout {

    static final String RESOURCE = "stream";
    static final String STATE_MODEL = "LeaderStandby";
    static final String OWNED = "LEADER";

    /** The live-instance field carrying a member's status endpoint. */
    static final String STATUS_URL = "changegridStatusUrl";

    private GroupLayout() {}

    /** What every group's cluster name starts with. */
    static final String CLUSTER_PREFIX = "changegrid-";

    static String clusterName(String group) {
        return CLUSTER_PREFIX + group;
    }

    static String partitionName(int partition) {
        return RESOURCE + "_" + partition;
    }

    /**
     * @throws IllegalArgumentException if the name is not {@code stream_<n>}
     */
    static int partitionIndex(String partitionName) {
        int separator = partitionName.lastIndexOf('_');
        try {
            return Integer.parseInt(partitionName.substring(separator + 1));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    "not a partition of a consumer group: name=" + partitionName, e);
        }
    }
}
