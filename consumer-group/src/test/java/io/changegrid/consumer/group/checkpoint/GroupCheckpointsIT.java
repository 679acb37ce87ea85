package io.changegrid.consumer.group.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.consumer.group.zookeeper.SessionExpiry;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Claims, saves and fencing of a group's partition checkpoints on a real ZooKeeper. */
class GroupCheckpointsIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static ZooKeeperSession session;

    @BeforeAll
    static void connect() throws Exception {
        session =
                ZooKeeperSession.open(ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4));
    }

    @AfterAll
    static void disconnect() {
        session.close();
    }

    private static GroupCheckpoints group(TestInfo test) {
        return new GroupCheckpoints(session, test.getTestMethod().orElseThrow().getName());
    }

    @Test
    void shouldStartWithNoCheckpointAndEpochOneWhenAPartitionIsClaimedFirst(TestInfo test)
            throws Exception {
        GroupCheckpoints group = group(test);

        long epoch = group.claim(3, "a");

        assertThat(epoch).isEqualTo(1);
        assertThat(group.store(3, epoch, "a").load()).isEmpty();
        assertThat(group.read(3)).get().extracting(PartitionCheckpoint::owner).isEqualTo("a");
        assertThat(group.read(4)).isEmpty();
    }

    @Test
    void shouldResumeAtThePreviousOwnersCheckpointWhenTheNextOwnerClaims(TestInfo test)
            throws Exception {
        GroupCheckpoints group = group(test);
        long first = group.claim(0, "a");
        ZooKeeperCheckpointStore a = group.store(0, first, "a");
        a.load();
        a.save(100);
        a.save(150);

        long second = group.claim(0, "b");
        ZooKeeperCheckpointStore b = group.store(0, second, "b");

        assertThat(second).isEqualTo(first + 1);
        assertThat(b.load()).isEqualTo(OptionalLong.of(150));
        assertThat(b.epoch()).isEqualTo(second);
    }

    @Test
    void shouldHandTheTimelineToTheNextOwnerWhenTheCheckpointWasSavedOnIt(TestInfo test)
            throws Exception {
        GroupCheckpoints group = group(test);
        ZooKeeperCheckpointStore a = group.store(0, group.claim(0, "a"), "a");
        assertThat(a.loadTimeline()).isEmpty();
        a.adoptTimeline("mariadb-gtid:domain=0");
        a.save(4_611_686_018_427_388_000L);

        ZooKeeperCheckpointStore b = group.store(0, group.claim(0, "b"), "b");

        assertThat(b.loadTimeline()).hasValue("mariadb-gtid:domain=0");
        b.save(4_611_686_018_427_388_010L); // a save keeps the node's timeline
        ZooKeeperCheckpointStore c = group.store(0, group.claim(0, "c"), "c");
        assertThat(c.load()).hasValue(4_611_686_018_427_388_010L);
        assertThat(c.loadTimeline()).hasValue("mariadb-gtid:domain=0");
    }

    @Test
    void shouldRefuseTheSaveAndKeepTheNewOwnersCheckpointWhenAFencedOwnerSaves(TestInfo test)
            throws Exception {
        GroupCheckpoints group = group(test);
        ZooKeeperCheckpointStore a = group.store(1, group.claim(1, "a"), "a");
        a.load();
        a.save(100);
        ZooKeeperCheckpointStore b = group.store(1, group.claim(1, "b"), "b");
        b.load();
        b.save(120);

        assertThatThrownBy(() -> a.save(200))
                .isInstanceOf(CheckpointFencedException.class)
                .hasMessageContaining("partition=1")
                .hasMessageContaining("epoch=1")
                .hasMessageContaining("currentEpoch=2")
                .hasMessageContaining("currentOwner=b");
        PartitionCheckpoint node = group.read(1).orElseThrow();
        assertThat(node.scn()).isEqualTo(120);
        assertThat(node.owner()).isEqualTo("b");
    }

    @Test
    void shouldRefuseTheSaveWhenANewOwnerClaimedButHasNotSavedYet(TestInfo test) throws Exception {
        GroupCheckpoints group = group(test);
        ZooKeeperCheckpointStore a = group.store(2, group.claim(2, "a"), "a");
        a.load();
        a.save(100);

        group.claim(2, "b");

        assertThatThrownBy(() -> a.save(101)).isInstanceOf(CheckpointFencedException.class);
        assertThat(group.read(2).orElseThrow().scn()).isEqualTo(100);
    }

    @Test
    void shouldRefuseToLoadWhenTheStoreIsFencedBeforeItStarted(TestInfo test) throws Exception {
        GroupCheckpoints group = group(test);
        long stale = group.claim(5, "a");
        group.claim(5, "b");

        assertThatThrownBy(() -> group.store(5, stale, "a").load())
                .isInstanceOf(CheckpointFencedException.class);
    }

    @Test
    void shouldGiveEveryConcurrentClaimItsOwnEpochWhenMembersRace(TestInfo test) throws Exception {
        GroupCheckpoints group = group(test);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Long>> claims = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String owner = "member-" + i;
                claims.add(() -> group.claim(7, owner));
            }
            List<Long> epochs = new ArrayList<>();
            for (Future<Long> epoch : pool.invokeAll(claims)) {
                epochs.add(epoch.get());
            }

            assertThat(epochs).doesNotHaveDuplicates();
            assertThat(epochs).allMatch(epoch -> epoch >= 1 && epoch <= 20);
            assertThat(group.read(7).orElseThrow().epoch()).isEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldStillSaveWhenTheSessionExpiredAndNoOneClaimedMeanwhile(TestInfo test)
            throws Exception {
        try (ZooKeeperSession own =
                ZooKeeperSession.open(
                        ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4))) {
            GroupCheckpoints group = new GroupCheckpoints(own, test.getDisplayName());
            ZooKeeperCheckpointStore store = group.store(0, group.claim(0, "a"), "a");
            store.load();
            store.save(10);

            SessionExpiry.expire(own);
            store.save(11);

            assertThat(group.read(0).orElseThrow().scn()).isEqualTo(11);
        }
    }
}
