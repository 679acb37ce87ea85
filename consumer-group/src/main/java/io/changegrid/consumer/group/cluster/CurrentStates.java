package io.changegrid.consumer.group.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.helix.HelixDataAccessor;
import org.apache.helix.PropertyKey;
import org.apache.helix.model.CurrentState;
import org.apache.helix.model.LiveInstance;

/**
 * Who actually holds what in a group at one moment: the live members and the partitions each
 * reports in its current state under its live session. This, not the ideal state, says whether a
 * group is running: the ideal state keeps the names of members that are gone, and a member that
 * comes back under the same name is in it again before it owns anything.
 *
 * @param live the live members, by name
 * @param owners each partition that is {@value GroupLayout#OWNED} on a live member, with that
 *     member
 * @param failed each live member's partitions in Helix's ERROR state, by member
 * @param leaderLive whether some member's controller leads the group
 */
record CurrentStates(
        List<Member> live,
        SortedMap<Integer, String> owners,
        SortedMap<String, List<Integer>> failed,
        boolean leaderLive) {

    /** The state Helix puts a partition in when a transition of it threw. */
    static final String ERROR = "ERROR";

    /**
     * One live member.
     *
     * @param instance its name
     * @param statusUrl its status endpoint, or null if it runs none
     */
    record Member(String instance, String statusUrl) {}

    CurrentStates {
        live = List.copyOf(live);
        owners = new TreeMap<>(owners);
        failed = new TreeMap<>(failed);
    }

    /** Reads the live members and their current states (one ZooKeeper read per member). */
    static CurrentStates read(HelixDataAccessor data) {
        PropertyKey.Builder keys = data.keyBuilder();
        List<LiveInstance> instances = data.getChildValues(keys.liveInstances(), true);
        List<Member> live = new ArrayList<>();
        SortedMap<Integer, String> owners = new TreeMap<>();
        SortedMap<String, List<Integer>> failed = new TreeMap<>();
        for (LiveInstance instance : instances) {
            String name = instance.getInstanceName();
            live.add(new Member(name, instance.getRecord().getSimpleField(GroupLayout.STATUS_URL)));
            // The current state of the member's live session only: one left by an earlier session
            // of the same name describes partitions it no longer holds.
            CurrentState state =
                    data.getProperty(
                            keys.currentState(
                                    name, instance.getEphemeralOwner(), GroupLayout.RESOURCE));
            if (state == null) {
                continue;
            }
            for (Map.Entry<String, String> partition : state.getPartitionStateMap().entrySet()) {
                int index = GroupLayout.partitionIndex(partition.getKey());
                if (GroupLayout.OWNED.equals(partition.getValue())) {
                    owners.put(index, name);
                } else if (ERROR.equals(partition.getValue())) {
                    failed.computeIfAbsent(name, k -> new ArrayList<>()).add(index);
                }
            }
        }
        live.sort(Comparator.comparing(Member::instance));
        boolean leaderLive = data.getProperty(keys.controllerLeader()) != null;
        return new CurrentStates(live, owners, failed, leaderLive);
    }

    /** The live members' names, sorted. */
    List<String> liveNames() {
        return live.stream().map(Member::instance).toList();
    }

    /** Whether some partition has a live owner: the group runs, whatever its quorum. */
    boolean running() {
        return !owners.isEmpty();
    }
}
