package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.batch.Committer;
import io.changegrid.appliers.batch.Lane;
import io.changegrid.appliers.checkpoint.CheckpointTable;
import io.changegrid.appliers.checkpoint.LaneCheckpoint;
import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The committer on the local PostgreSQL: what an interrupt does while lanes commit. */
class CommitterIT {

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @Test
    void shouldWaitForEveryLanesCommitWhenTheDispatcherIsInterrupted() throws Exception {
        CheckpointTable table =
                new CheckpointTable(Dialect.of("jdbc:postgresql:"), "public", "cp", "interrupt", 0);
        List<Lane> lanes = new ArrayList<>();
        try (Connection control = POSTGRES.database().connect();
                Connection blocker = POSTGRES.database().connect();
                Committer committer = new Committer(2)) {
            table.create(control);
            table.prepareLanes(control, 2);
            for (int id = 0; id < 2; id++) {
                lanes.add(
                        new Lane(
                                id,
                                POSTGRES.database().connect(),
                                table,
                                LaneCheckpoint.NONE,
                                false,
                                null,
                                null,
                                null));
            }
            // Lane 1's checkpoint row is locked elsewhere: its commit waits for it.
            blocker.setAutoCommit(false);
            try (Statement lock = blocker.createStatement()) {
                lock.execute("SELECT * FROM cp WHERE lane = 1 FOR UPDATE");
            }
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicBoolean interruptKept = new AtomicBoolean();
            Thread dispatcher =
                    new Thread(
                            () -> {
                                try {
                                    committer.commitAll(lanes, LaneCheckpoint.after(50), 0);
                                } catch (Throwable t) {
                                    thrown.set(t);
                                }
                                interruptKept.set(Thread.currentThread().isInterrupted());
                            },
                            "dispatcher");
            dispatcher.start();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> lanes.get(0).checkpoint().scn() == 50 && waitingForLock(control));
            dispatcher.interrupt();
            dispatcher.join(1_000); // a deadline: it must not return while lane 1 still commits
            assertThat(dispatcher.isAlive()).as("returned while lane 1 was committing").isTrue();
            assertThat(lanes.get(1).checkpoint().scn()).isEqualTo(-1);

            blocker.rollback(); // lane 1's commit goes on and ends
            dispatcher.join(10_000);
            assertThat(dispatcher.isAlive()).isFalse();
            assertThat(thrown.get()).isNull();
            assertThat(interruptKept.get()).isTrue();
            assertThat(lanes.get(1).checkpoint()).isEqualTo(LaneCheckpoint.after(50));
            assertThat(table.resumeScn(control)).hasValue(50);
        } finally {
            for (Lane lane : lanes) {
                lane.close();
            }
        }
    }

    private static boolean waitingForLock(Connection control) throws Exception {
        try (Statement statement = control.createStatement();
                var rows =
                        statement.executeQuery(
                                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type ="
                                        + " 'Lock' AND datname = current_database()")) {
            rows.next();
            return rows.getInt(1) > 0;
        }
    }
}
