package io.changegrid.console.grid;

import io.changegrid.protocol.RelayRegistration;
import java.util.List;

/**
 * The grid as ZooKeeper described it at one sample.
 *
 * @param relays every registered relay, by source id then endpoint
 * @param groups every consumer group, by name
 * @param error why ZooKeeper could not be read (then both lists are empty); null otherwise
 */
public record GridSnapshot(
        List<RelayRegistration> relays, List<GroupSnapshot> groups, String error) {

    public GridSnapshot {
        relays = List.copyOf(relays);
        groups = List.copyOf(groups);
    }
}
