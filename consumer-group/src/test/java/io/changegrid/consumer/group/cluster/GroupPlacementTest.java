package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class GroupPlacementTest {

    private static Map<String, Integer> counts(Map<Integer, String> placement) {
        Map<String, Integer> counts = new HashMap<>();
        placement.values().forEach(member -> counts.merge(member, 1, Integer::sum));
        return counts;
    }

    private static int moves(Map<Integer, String> before, Map<Integer, String> after) {
        int moves = 0;
        for (Map.Entry<Integer, String> entry : after.entrySet()) {
            if (!entry.getValue().equals(before.get(entry.getKey()))) {
                moves++;
            }
        }
        return moves;
    }

    /**
     * The fewest moves an even placement needs: every partition of a member that is gone, and what
     * each live member owns beyond its share, the larger shares going to those owning most.
     */
    private static int necessaryMoves(
            Map<Integer, String> before, List<String> live, int partitions) {
        Map<String, Integer> owned = new HashMap<>();
        int orphans = 0;
        for (int partition = 0; partition < partitions; partition++) {
            String owner = before.get(partition);
            if (live.contains(owner)) {
                owned.merge(owner, 1, Integer::sum);
            } else {
                orphans++;
            }
        }
        List<Integer> counts = new ArrayList<>();
        live.forEach(member -> counts.add(owned.getOrDefault(member, 0)));
        counts.sort(java.util.Comparator.reverseOrder());
        int moves = orphans;
        for (int i = 0; i < counts.size(); i++) {
            int share = partitions / live.size() + (i < partitions % live.size() ? 1 : 0);
            moves += Math.max(0, counts.get(i) - share);
        }
        return moves;
    }

    @Test
    void shouldSpreadEvenlyWhenAGroupStarts() {
        SortedMap<Integer, String> placement =
                GroupPlacement.place(12, List.of("c1", "c2", "c3"), Map.of());

        assertThat(placement).hasSize(12);
        assertThat(counts(placement))
                .containsOnly(Map.entry("c1", 4), Map.entry("c2", 4), Map.entry("c3", 4));
    }

    @Test
    void shouldTakeOneFromEachWhenAFourthMemberJoins() {
        SortedMap<Integer, String> three =
                GroupPlacement.place(12, List.of("c1", "c2", "c3"), Map.of());

        SortedMap<Integer, String> four =
                GroupPlacement.place(12, List.of("c1", "c2", "c3", "c4"), three);

        assertThat(counts(four))
                .containsOnly(
                        Map.entry("c1", 3),
                        Map.entry("c2", 3),
                        Map.entry("c3", 3),
                        Map.entry("c4", 3));
        assertThat(moves(three, four)).isEqualTo(3);
        four.forEach(
                (partition, owner) -> {
                    if (!owner.equals("c4")) {
                        assertThat(three.get(partition)).isEqualTo(owner);
                    }
                });
    }

    @Test
    void shouldMoveOnlyTheDeadMembersPartitionsWhenAMemberDies() {
        SortedMap<Integer, String> three =
                GroupPlacement.place(12, List.of("c1", "c2", "c3"), Map.of());

        SortedMap<Integer, String> two = GroupPlacement.place(12, List.of("c1", "c3"), three);

        assertThat(counts(two)).containsOnly(Map.entry("c1", 6), Map.entry("c3", 6));
        assertThat(moves(three, two)).isEqualTo(4);
    }

    @Test
    void shouldBalanceAgainWithMinimalMovesWhenAReplacementJoinsAfterADeath() {
        SortedMap<Integer, String> three =
                GroupPlacement.place(12, List.of("c1", "c2", "c3"), Map.of());
        SortedMap<Integer, String> two = GroupPlacement.place(12, List.of("c2", "c3"), three);

        SortedMap<Integer, String> replaced =
                GroupPlacement.place(12, List.of("c2", "c3", "c4"), two);

        assertThat(counts(replaced))
                .containsOnly(Map.entry("c2", 4), Map.entry("c3", 4), Map.entry("c4", 4));
        assertThat(moves(two, replaced)).isEqualTo(4);
    }

    @Test
    void shouldGiveTheRemainderToTheMembersOwningMostWhenPartitionsDoNotDivideEvenly() {
        Map<Integer, String> previous = new HashMap<>();
        for (int partition = 0; partition < 10; partition++) {
            previous.put(partition, partition < 6 ? "c1" : "c2");
        }

        SortedMap<Integer, String> placement =
                GroupPlacement.place(10, List.of("c1", "c2", "c3"), previous);

        assertThat(counts(placement))
                .containsOnly(Map.entry("c1", 4), Map.entry("c2", 3), Map.entry("c3", 3));
        assertThat(moves(previous, placement)).isEqualTo(3);
    }

    @Test
    void shouldKeepThePlacementWhenNoMemberIsLive() {
        Map<Integer, String> previous = Map.of(0, "c1", 1, "c2");

        assertThat(GroupPlacement.place(2, List.of(), previous)).isEqualTo(previous);
    }

    @Test
    void shouldStayEvenAndMoveNoMoreThanNeededWhenMembersComeAndGoAtRandom() {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        Random random = new Random(seed);
        List<String> live = new ArrayList<>(List.of("m0", "m1", "m2"));
        SortedMap<Integer, String> placement = GroupPlacement.place(24, live, Map.of());
        int next = 3;
        for (int step = 0; step < 200; step++) {
            if (live.size() > 1 && random.nextBoolean()) {
                live.remove(random.nextInt(live.size()));
            } else {
                live.add("m" + next++);
            }
            SortedMap<Integer, String> after = GroupPlacement.place(24, live, placement);
            Map<String, Integer> counts = counts(after);
            int smallest =
                    live.stream().mapToInt(m -> counts.getOrDefault(m, 0)).min().orElseThrow();
            int largest =
                    live.stream().mapToInt(m -> counts.getOrDefault(m, 0)).max().orElseThrow();
            assertThat(largest - smallest)
                    .as("seed=%d, step=%d", seed, step)
                    .isLessThanOrEqualTo(1);
            assertThat(after.values()).as("seed=%d", seed).allMatch(live::contains);
            assertThat(moves(placement, after))
                    .as("seed=%d, step=%d", seed, step)
                    .isEqualTo(necessaryMoves(placement, live, 24));
            placement = after;
        }
    }
}
