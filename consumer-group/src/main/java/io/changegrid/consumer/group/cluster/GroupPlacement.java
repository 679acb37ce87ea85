package io.changegrid.consumer.group.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a group's partitions go, as a pure function of the live members and the previous placement:
 * counts as even as they can be ({@code N / members}, the remainder spread one each), and as few
 * moves as that allows. A live member keeps what it owns up to its share, and the members owning
 * the most keep the larger shares; only the partitions over a share and those of members that are
 * gone move, to the members furthest below theirs.
 *
 * <p>Deterministic: the same inputs always give the same placement, whichever member computes it.
 */
final class GroupPlacement {

    private GroupPlacement() {}

    /**
     * @param partitions the group's number of partitions
     * @param live the live members
     * @param previous the previous owner of each partition (partitions owned by nobody left out)
     * @return the owner of every partition; the previous placement when no member is live
     */
    static SortedMap<Integer, String> place(
            int partitions, List<String> live, Map<Integer, String> previous) {
        SortedMap<Integer, String> placement = new TreeMap<>();
        if (live.isEmpty()) {
            placement.putAll(previous);
            return placement;
        }
        Map<String, List<Integer>> kept = new HashMap<>();
        for (String member : live) {
            kept.put(member, new ArrayList<>());
        }
        List<Integer> orphans = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            String owner = previous.get(partition);
            if (owner != null && kept.containsKey(owner)) {
                kept.get(owner).add(partition);
            } else {
                orphans.add(partition);
            }
        }
        // The members owning most keep the larger shares: that moves the fewest partitions.
        List<String> byOwned = new ArrayList<>(live);
        byOwned.sort(
                Comparator.comparingInt((String member) -> kept.get(member).size())
                        .reversed()
                        .thenComparing(Comparator.naturalOrder()));
        Map<String, Integer> share = new HashMap<>();
        for (int i = 0; i < byOwned.size(); i++) {
            share.put(
                    byOwned.get(i),
                    partitions / live.size() + (i < partitions % live.size() ? 1 : 0));
        }
        for (String member : byOwned) {
            List<Integer> owned = kept.get(member);
            // Over its share: the highest-numbered partitions go.
            while (owned.size() > share.get(member)) {
                orphans.add(owned.remove(owned.size() - 1));
            }
        }
        orphans.sort(Comparator.naturalOrder());
        for (int partition : orphans) {
            String taker =
                    byOwned.stream()
                            .filter(member -> kept.get(member).size() < share.get(member))
                            .min(
                                    Comparator.comparingInt(
                                                    (String member) ->
                                                            kept.get(member).size()
                                                                    - share.get(member))
                                            .thenComparing(Comparator.naturalOrder()))
                            .orElseThrow();
            kept.get(taker).add(partition);
        }
        kept.forEach(
                (member, owned) -> owned.forEach(partition -> placement.put(partition, member)));
        return placement;
    }
}
