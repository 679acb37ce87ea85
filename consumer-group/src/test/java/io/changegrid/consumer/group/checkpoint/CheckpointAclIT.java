package io.changegrid.consumer.group.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.protocol.zookeeper.ZooKeeperCredentials;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.OptionalLong;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A group's checkpoints and epochs made with its ZooKeeper credentials, on a real ZooKeeper: a
 * client without them (none, or another group's) reads them but can neither move a checkpoint nor
 * claim a partition (NoAuth); a member holding them can.
 */
class CheckpointAclIT {

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private static final String GROUP = "shop-apply";
    private static final ZooKeeperCredentials MEMBERS =
            new ZooKeeperCredentials("shop-apply", "group-secret-2c7d");

    private static ZooKeeperSession member;
    private static long epoch;

    @BeforeAll
    static void claimAndSave() throws Exception {
        member = open(MEMBERS);
        GroupCheckpoints checkpoints = new GroupCheckpoints(member, GROUP);
        epoch = checkpoints.claim(0, "member-a");
        checkpoints.store(0, epoch, "member-a").save(100);
    }

    @AfterAll
    static void close() {
        member.close();
    }

    @Test
    void shouldRefuseToMoveACheckpointWhenTheClientHasNoCredentials() throws Exception {
        try (ZooKeeperSession rogue = open(null)) {
            GroupCheckpoints seen = new GroupCheckpoints(rogue, GROUP);

            assertThat(seen.read(0)).get().extracting(PartitionCheckpoint::scn).isEqualTo(100L);
            ZooKeeperCheckpointStore forged = seen.store(0, epoch, "member-a");
            assertThatThrownBy(() -> forged.save(1))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("checkpoint not saved in ZooKeeper")
                    .hasRootCauseInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> seen.claim(0, "rogue"))
                    .isInstanceOf(IOException.class)
                    .hasRootCauseInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> seen.claim(1, "rogue"))
                    .as("nor create a partition's node under the group")
                    .hasRootCauseInstanceOf(KeeperException.NoAuthException.class);
        }
        assertThat(new GroupCheckpoints(member, GROUP).read(0))
                .get()
                .extracting(PartitionCheckpoint::scn, PartitionCheckpoint::owner)
                .containsExactly(100L, "member-a");
    }

    @Test
    void shouldRefuseToMoveACheckpointWhenTheClientIsAnotherGroupsMember() throws Exception {
        try (ZooKeeperSession other = open(new ZooKeeperCredentials("crm-apply", "x"))) {
            ZooKeeperCheckpointStore forged =
                    new GroupCheckpoints(other, GROUP).store(0, epoch, "member-a");

            assertThatThrownBy(() -> forged.save(1))
                    .hasRootCauseInstanceOf(KeeperException.NoAuthException.class);
            // Its own group is its own to make, under the shared root.
            GroupCheckpoints own = new GroupCheckpoints(other, "crm-apply");
            own.store(0, own.claim(0, "crm-a"), "crm-a").save(5);
            assertThat(own.read(0)).get().extracting(PartitionCheckpoint::scn).isEqualTo(5L);
        }
    }

    @Test
    void shouldClaimAndSaveWhenAnotherMemberHoldsTheGroupsCredentials() throws Exception {
        try (ZooKeeperSession next = open(MEMBERS)) {
            GroupCheckpoints checkpoints = new GroupCheckpoints(next, GROUP);

            long claimed = checkpoints.claim(2, "member-b");
            ZooKeeperCheckpointStore store = checkpoints.store(2, claimed, "member-b");
            store.save(42);

            assertThat(store.load()).isEqualTo(OptionalLong.of(42));
        }
    }

    private static ZooKeeperSession open(ZooKeeperCredentials credentials) throws Exception {
        return ZooKeeperSession.open(
                ZOOKEEPER.zooKeeper().connectString(), Duration.ofSeconds(4), credentials);
    }
}
