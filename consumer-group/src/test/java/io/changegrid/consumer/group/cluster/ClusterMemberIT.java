package io.changegrid.consumer.group.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Members of a group in one JVM on a real ZooKeeper, with embedded controllers: how Helix spreads
 * and moves partitions, the quorum, and the epochs claimed on each assignment.
 */
class ClusterMemberIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private static ZooKeeperSession session;
    private final List<ClusterMember> members = new ArrayList<>();
    private final Map<String, Recorder> recorders = new HashMap<>();

    @BeforeAll
    static void connect() throws Exception {
        session = ZooKeeperSession.open(ZOOKEEPER.zooKeeper().connectString(), SESSION);
    }

    @AfterAll
    static void disconnect() {
        session.close();
    }

    @AfterEach
    void leave() {
        members.forEach(ClusterMember::close);
        assertThat(overlaps).as("no partition is ever owned by two members at once").isEmpty();
    }

    /** Who owns each partition now, over all members of a test; and every overlap seen. */
    private final Map<Integer, String> owners = new ConcurrentHashMap<>();

    private final List<String> overlaps = new CopyOnWriteArrayList<>();

    /** What one member owns, with the epoch it got each partition with. */
    final class Recorder implements PartitionListener {
        final Map<Integer, Long> owned = new ConcurrentHashMap<>();
        private final String name;

        Recorder(String name) {
            this.name = name;
        }

        @Override
        public void onAssigned(int partition, long epoch, Ownership ownership) {
            String previous = owners.putIfAbsent(partition, name);
            if (previous != null) {
                overlaps.add("partition " + partition + " to " + name + " while " + previous);
            }
            owned.put(partition, epoch);
        }

        @Override
        public void onRevoked(int partition) {
            owned.remove(partition);
            owners.remove(partition, name);
        }
    }

    private Recorder join(String group, String instance, int partitions, int quorum)
            throws Exception {
        return join(group, instance, partitions, quorum, epochs -> epochs);
    }

    /** A member whose epoch claims go through {@code claims}, to make some fail. */
    private Recorder join(
            String group,
            String instance,
            int partitions,
            int quorum,
            UnaryOperator<PartitionEpochs> claims)
            throws Exception {
        GroupConfig config =
                new GroupConfig(
                        ZOOKEEPER.zooKeeper().connectString(),
                        group,
                        instance,
                        partitions,
                        quorum,
                        SESSION,
                        1,
                        "127.0.0.1",
                        -1);
        GroupCheckpoints checkpoints = new GroupCheckpoints(session, group);
        Recorder recorder = new Recorder(instance);
        members.add(
                ClusterMember.join(
                        config,
                        null,
                        claims.apply(partition -> checkpoints.claim(partition, instance)),
                        recorder));
        recorders.put(instance, recorder);
        return recorder;
    }

    private Map<String, Set<Integer>> ownership() {
        Map<String, Set<Integer>> byMember = new HashMap<>();
        recorders.forEach(
                (name, recorder) -> byMember.put(name, new TreeSet<>(recorder.owned.keySet())));
        return byMember;
    }

    private void awaitEvenSpread(int partitions, int size) {
        Awaitility.await()
                .atMost(SETTLE)
                .untilAsserted(
                        () -> {
                            Map<String, Set<Integer>> owned = ownership();
                            Set<Integer> all = new TreeSet<>();
                            owned.values().forEach(all::addAll);
                            assertThat(all).hasSize(partitions);
                            assertThat(owned.values()).allMatch(set -> set.size() == size);
                        });
    }

    @Test
    void shouldSpreadEvenlyAndMoveOnlyTheNewcomersShareWhenAFourthMemberJoins() throws Exception {
        for (int i = 0; i < 3; i++) {
            join("spread", "m" + i, 12, 1);
        }
        awaitEvenSpread(12, 4);
        Map<String, Set<Integer>> before = ownership();

        join("spread", "m3", 12, 1);

        awaitEvenSpread(12, 3);
        Map<String, Set<Integer>> after = ownership();
        for (int i = 0; i < 3; i++) {
            String name = "m" + i;
            assertThat(before.get(name))
                    .as("an old member only gives partitions up: %s", name)
                    .containsAll(after.get(name));
        }
        try (ClusterView view =
                ClusterView.connect(ZOOKEEPER.zooKeeper().connectString(), "spread")) {
            Awaitility.await()
                    .atMost(SETTLE)
                    .untilAsserted(
                            () -> {
                                GroupAssignment assignment = view.read();
                                assertThat(assignment.partitions()).isEqualTo(12);
                                assertThat(assignment.members()).hasSize(4);
                                assertThat(assignment.leader()).startsWith("m");
                                Map<String, Set<Integer>> seen = new HashMap<>();
                                assignment
                                        .partitionsByMember()
                                        .forEach(
                                                (name, list) ->
                                                        seen.put(name, new TreeSet<>(list)));
                                assertThat(seen).isEqualTo(ownership());
                            });
        }
    }

    @Test
    void shouldHandTheLeaversPartitionsOnWithLargerEpochsWhenAMemberLeaves() throws Exception {
        for (int i = 0; i < 3; i++) {
            join("leave", "m" + i, 6, 1);
        }
        awaitEvenSpread(6, 2);
        Map<Integer, Long> leaverEpochs = new HashMap<>(recorders.get("m1").owned);

        members.get(1).close();

        Awaitility.await()
                .atMost(SETTLE)
                .untilAsserted(
                        () -> {
                            Map<Integer, Long> survivors = new HashMap<>();
                            survivors.putAll(recorders.get("m0").owned);
                            survivors.putAll(recorders.get("m2").owned);
                            assertThat(survivors).hasSize(6);
                            leaverEpochs.forEach(
                                    (partition, epoch) ->
                                            assertThat(survivors.get(partition))
                                                    .isEqualTo(epoch + 1));
                        });
        assertThat(recorders.get("m1").owned).isEmpty();
    }

    @Test
    void shouldBalanceEvenlyAgainWhenANewMemberReplacesOneThatLeft() throws Exception {
        for (int i = 0; i < 3; i++) {
            join("replace", "m" + i, 12, 1);
        }
        awaitEvenSpread(12, 4);
        members.get(0).close();
        recorders.remove("m0");
        awaitEvenSpread(12, 6);

        join("replace", "m3", 12, 1);

        awaitEvenSpread(12, 4);
    }

    @Test
    void shouldAssignNothingUntilTheQuorumIsUpWhenTheGroupStarts() throws Exception {
        Recorder first = join("quorum", "m0", 4, 2);
        try (ClusterView view =
                ClusterView.connect(ZOOKEEPER.zooKeeper().connectString(), "quorum")) {
            Awaitility.await().atMost(SETTLE).until(() -> view.read().members().size() == 1);
            assertThat(view.read().assigning()).isFalse();
            assertThat(first.owned).isEmpty();

            join("quorum", "m1", 4, 2);

            awaitEvenSpread(4, 2);
            assertThat(view.read().assigning()).isTrue();
        }
    }

    @Test
    void shouldAssignNothingUntilTheQuorumIsUpWhenAWholeGroupRestartsUnderTheSameNames()
            throws Exception {
        join("restart", "m0", 4, 2);
        Recorder last = join("restart", "m1", 4, 2);
        awaitEvenSpread(4, 2);
        members.get(0).close();
        Awaitility.await().atMost(SETTLE).until(() -> last.owned.size() == 4);
        members.get(1).close();
        recorders.clear();
        // The ideal state still names m1 as the owner of every partition.

        Recorder back = join("restart", "m1", 4, 2);
        try (ClusterView view =
                ClusterView.connect(ZOOKEEPER.zooKeeper().connectString(), "restart")) {
            Awaitility.await()
                    .atMost(SETTLE)
                    .until(
                            () -> {
                                GroupAssignment now = view.read();
                                return now.members().size() == 1 && "m1".equals(now.leader());
                            });
            Awaitility.await()
                    .during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> back.owned.isEmpty() && !view.read().assigning());

            join("restart", "m0", 4, 2);

            awaitEvenSpread(4, 2);
            assertThat(view.read().assigning()).isTrue();
        }
    }

    @Test
    void shouldTakeAPartitionOnAgainWhenItsFirstClaimFailed() throws Exception {
        AtomicInteger claimsOfPartition2 = new AtomicInteger();
        Recorder member =
                join(
                        "failed",
                        "m0",
                        4,
                        1,
                        epochs ->
                                partition -> {
                                    if (partition == 2
                                            && claimsOfPartition2.incrementAndGet() == 1) {
                                        // The transition throws: Helix marks the partition ERROR.
                                        throw new IOException("claim timed out (test)");
                                    }
                                    return epochs.claim(partition);
                                });

        Awaitility.await()
                .atMost(SETTLE)
                .untilAsserted(() -> assertThat(member.owned).containsOnlyKeys(0, 1, 2, 3));
        assertThat(claimsOfPartition2).hasValue(2);
        assertThat(member.owned.get(2)).as("the failed claim wrote no epoch").isEqualTo(1);
    }

    @Test
    void shouldRefuseToJoinWhenTheGroupHasAnotherNumberOfPartitions() throws Exception {
        join("sized", "m0", 8, 1);

        assertThatThrownBy(() -> join("sized", "m1", 4, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("subscription.partitions=4")
                .hasMessageContaining("groupPartitions=8");
    }
}
