package io.changegrid.consumer.group;

import java.util.List;

/**
 * What one group member runs, for its status endpoint ({@code GET /v1/status}).
 *
 * @param group the group's name
 * @param instance this member's name
 * @param connected whether its Helix session is connected
 * @param leader whether its controller leads the group
 * @param relays the relays its partitions pull from (configured or discovered)
 * @param partitions the partitions it owns, by number
 */
public record GroupStatus(
        String group,
        String instance,
        boolean connected,
        boolean leader,
        List<String> relays,
        List<PartitionStatus> partitions) {

    public GroupStatus {
        relays = List.copyOf(relays);
        partitions = List.copyOf(partitions);
    }
}
