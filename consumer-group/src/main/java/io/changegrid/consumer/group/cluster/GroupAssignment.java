package io.changegrid.consumer.group.cluster;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Who owns what in a consumer group at one moment, as Helix records it: the members' own reports of
 * the partitions they hold (their current states), which lead the controller's view.
 *
 * @param group the group's name
 * @param partitions the number of partitions; 0 if the group does not exist
 * @param assigning whether some partition is owned by a live member (as the members report it, not
 *     as the ideal state plans it): false while a group starting from nothing waits for its quorum,
 *     and for the moment between reaching it and the first partition taken on
 * @param leader the member whose controller leads, or null
 * @param members the live members, by name
 * @param owners each owned partition's owner; a partition missing here is owned by nobody now
 */
public record GroupAssignment(
        String group,
        int partitions,
        boolean assigning,
        String leader,
        List<Member> members,
        SortedMap<Integer, String> owners) {

    /**
     * One live member.
     *
     * @param instance its name
     * @param statusUrl its status endpoint, or null if it runs none
     */
    public record Member(String instance, String statusUrl) {}

    public GroupAssignment {
        members = List.copyOf(members);
        owners = new TreeMap<>(owners);
    }

    /** The partitions each live member owns, by member name (members owning none included). */
    public SortedMap<String, List<Integer>> partitionsByMember() {
        SortedMap<String, List<Integer>> byMember = new TreeMap<>();
        for (Member member : members) {
            byMember.put(member.instance(), new java.util.ArrayList<>());
        }
        for (Map.Entry<Integer, String> owner : owners.entrySet()) {
            byMember.computeIfAbsent(owner.getValue(), k -> new java.util.ArrayList<>())
                    .add(owner.getKey());
        }
        return byMember;
    }
}
