package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.checkpoint.FencedException;
import io.changegrid.appliers.checkpoint.LaneCheckpoint;
import io.changegrid.appliers.checkpoint.SnapshotMark;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The checkpoint table's rules on the local PostgreSQL: lanes, lane-count changes, fencing. */
class CheckpointTableIT {

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static CheckpointTable table(String group) {
        return new CheckpointTable(Dialect.of("jdbc:postgresql:"), "public", "cp", group, 0);
    }

    private static void advance(
            Connection connection, CheckpointTable table, int lane, long scn, long epoch)
            throws Exception {
        advance(connection, table, lane, LaneCheckpoint.after(scn), epoch);
    }

    private static void advance(
            Connection connection, CheckpointTable table, int lane, LaneCheckpoint to, long epoch)
            throws Exception {
        advance(connection, table, lane, to, SnapshotMark.NONE, epoch);
    }

    private static void advance(
            Connection connection,
            CheckpointTable table,
            int lane,
            LaneCheckpoint to,
            SnapshotMark mark,
            long epoch)
            throws Exception {
        connection.setAutoCommit(false);
        try (PreparedStatement advance = connection.prepareStatement(table.advanceSql())) {
            table.advance(advance, lane, to, mark, epoch);
            connection.commit();
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
    }

    private static long[] scns(LaneCheckpoint[] lanes) {
        return Arrays.stream(lanes).mapToLong(LaneCheckpoint::scn).toArray();
    }

    @Test
    void shouldKeepAPartlyAppliedTransactionWhenABarrierCommittedIt() throws Exception {
        CheckpointTable table = table("partial");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            table.prepareLanes(connection, 2);
            advance(connection, table, 0, LaneCheckpoint.within(500, 520, 3), 0);
            advance(connection, table, 1, 520, 0);
            LaneCheckpoint[] lanes = table.prepareLanes(connection, 2);
            assertThat(lanes[0]).isEqualTo(LaneCheckpoint.within(500, 520, 3));
            assertThat(lanes[0].covers(520, 3)).isTrue();
            assertThat(lanes[0].covers(520, 4)).isFalse();
            assertThat(table.resumeScn(connection)).hasValue(500);
            assertThatThrownBy(() -> table.prepareLanes(connection, 3))
                    .hasMessageContaining("lane count changed");
            table.advanceAll(connection, 2, 520, 0); // covers the partial transaction
            assertThat(table.claim(connection, 2, 0)).containsOnly(LaneCheckpoint.after(520));
        }
    }

    @Test
    void shouldResumeWithTheCursorOfTheLaneBehindWhenLanesCommittedDifferentChunks()
            throws Exception {
        CheckpointTable table = table("snapshot");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            table.prepareLanes(connection, 3);
            assertThat(table.resumeMark(connection)).isEqualTo(SnapshotMark.NONE);
            SnapshotMark first = SnapshotMark.NONE.movedTo("v1:10:a:b:AQ");
            SnapshotMark second = first.movedTo("v1:20:a:b:Ag");
            advance(connection, table, 0, LaneCheckpoint.after(700), second, 0);
            advance(connection, table, 1, LaneCheckpoint.after(700), first, 0);
            advance(connection, table, 2, LaneCheckpoint.after(700), second, 0);

            assertThat(table.resumeScn(connection)).hasValue(700);
            assertThat(table.resumeMark(connection)).isEqualTo(first);
            assertThat(second.sequence()).isEqualTo(2);

            table.advanceAll(connection, 3, 700, second.movedTo(null), 0);
            assertThat(table.resumeMark(connection)).isEqualTo(new SnapshotMark(null, 3));
        }
    }

    @Test
    void shouldAddThePartialColumnsWhenTheTableIsFromAnEarlierVersion() throws Exception {
        CheckpointTable table =
                new CheckpointTable(Dialect.of("jdbc:postgresql:"), "public", "cp_old", "old", 0);
        try (Connection connection = POSTGRES.database().connect();
                var statement = connection.createStatement()) {
            statement.execute(
                    "CREATE TABLE cp_old (consumer_group varchar(200) NOT NULL, partition_id"
                            + " integer NOT NULL, lane integer NOT NULL, scn bigint NOT NULL, epoch"
                            + " bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now(),"
                            + " PRIMARY KEY (consumer_group, partition_id, lane))");
            statement.execute(
                    "INSERT INTO cp_old (consumer_group, partition_id, lane, scn, epoch) VALUES ('old', 0, 0, 42, 0)");
            table.create(connection);
            assertThat(table.prepareLanes(connection, 1)).containsExactly(LaneCheckpoint.after(42));
            assertThat(table.timeline(connection)).as("rows from before timelines").isEmpty();
            table.saveTimeline(connection, 1, "mariadb-gtid:domain=0", 0);
            assertThat(table.timeline(connection)).hasValue("mariadb-gtid:domain=0");
        }
    }

    @Test
    void shouldLeaveALaggingLaneBehindWhenTheLaneCountIsUnchanged() throws Exception {
        CheckpointTable table = table("lagging");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            assertThat(scns(table.prepareLanes(connection, 2))).containsExactly(-1, -1);
            advance(connection, table, 0, 500, 0);
            advance(connection, table, 1, 400, 0); // lane 1 committed less before a crash
            assertThat(scns(table.prepareLanes(connection, 2))).containsExactly(500, 400);
            assertThat(table.resumeScn(connection)).hasValue(400);
        }
    }

    @Test
    void shouldStartNewLanesWhereTheOldOnesWereWhenAllAgree() throws Exception {
        CheckpointTable table = table("regrow");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            table.prepareLanes(connection, 2);
            advance(connection, table, 0, 700, 0);
            advance(connection, table, 1, 700, 0);
            assertThat(scns(table.prepareLanes(connection, 4))).containsExactly(700, 700, 700, 700);
            assertThat(scns(table.prepareLanes(connection, 1))).containsExactly(700);
            assertThat(table.lanes(connection)).containsOnlyKeys(0);
        }
    }

    @Test
    void shouldRefuseANewLaneCountWhenLanesDisagree() throws Exception {
        CheckpointTable table = table("disagree");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            table.prepareLanes(connection, 2);
            advance(connection, table, 0, 900, 0);
            assertThatThrownBy(() -> table.prepareLanes(connection, 3))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("lane count changed while lanes are at different SCNs")
                    .hasMessageContaining("configured=3");
            assertThat(scns(table.prepareLanes(connection, 2))).containsExactly(900, -1);
        }
    }

    @Test
    void shouldRejectAnOlderEpochWhenANewerOwnerWroteTheLane() throws Exception {
        CheckpointTable table = table("fenced");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            table.prepareLanes(connection, 1);
            advance(connection, table, 0, 100, 7);
            assertThatThrownBy(() -> advance(connection, table, 0, 200, 6))
                    .isInstanceOf(FencedException.class)
                    .hasMessageContaining("group=fenced")
                    .hasMessageContaining("epoch=6");
            assertThat(table.resumeScn(connection)).hasValue(100);
            assertThatThrownBy(() -> table.advanceAll(connection, 1, 300, 6))
                    .isInstanceOf(FencedException.class);
            table.advanceAll(connection, 1, 300, 7);
            table.advanceAll(connection, 1, 250, 7); // never backwards
            assertThat(table.resumeScn(connection)).hasValue(300);
        }
    }

    @Test
    void shouldKeepTheTimelineOnEveryLaneWhenSavedAndFenceAnOlderEpoch() throws Exception {
        CheckpointTable table = table("timeline");
        try (Connection connection = POSTGRES.database().connect()) {
            table.create(connection);
            table.prepareLanes(connection, 2);
            assertThat(table.timeline(connection)).isEmpty();
            advance(connection, table, 0, 100, 3);

            table.saveTimeline(connection, 2, "mariadb-gtid:domain=0", 3);
            advance(connection, table, 1, 120, 3);

            assertThat(table.timeline(connection)).hasValue("mariadb-gtid:domain=0");
            assertThat(table.resumeScn(connection)).hasValue(100);
            assertThatThrownBy(() -> table.saveTimeline(connection, 2, "binlog:other", 2))
                    .isInstanceOf(FencedException.class);
            advance(connection, table, 0, 120, 3);
            assertThat(scns(table.prepareLanes(connection, 3))).containsExactly(120, 120, 120);
            assertThat(table.timeline(connection))
                    .as("a lane added later holds none; the others name it")
                    .hasValue("mariadb-gtid:domain=0");
        }
    }
}
