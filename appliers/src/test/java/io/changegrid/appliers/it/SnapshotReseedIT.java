package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Re-seeding a target (docs/appliers.md, "Seeding a target from a snapshot"): an applier seeded by
 * a snapshot falls off the relay's buffer while the source deletes rows, bootstraps by itself
 * ({@code bootstrap.onTooOld: snapshot}), and ends with the target equal to the source (rows and
 * their MD5), on PostgreSQL and MariaDB targets; before the applier emptied a table where its copy
 * begins, the deleted rows stayed. Also a re-seed whose callback fails (a crash, in process) right
 * after the table was emptied and again after four chunks were checkpointed: the restarted applier
 * continues mid-table, without emptying the table again, and ends equal to the source.
 */
class SnapshotReseedIT {

    private static final int ROWS = 10_000;

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir Path work;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void shouldDropRowsDeletedWhileAwayWhenReseededAfterA410(String kind) throws Exception {
        Target target = kind.equals("postgres") ? Target.of(POSTGRES.database()) : target2();
        String db = "reseed_" + kind;
        Relay relay = seededAndAway(db, kind.equals("postgres") ? 9_911 : 9_912, target);

        SnapshotScenario.Watched applier = applier(db, target);
        Consumer consumer =
                consumer(db, applier, 100, Map.of("bootstrap.onTooOld", "snapshot"), relay);
        Pipeline.awaitUntil(consumer, () -> applier.completions.get() > 0, Duration.ofMinutes(2));
        assertThat(applier.starts.get()).as("tables begun").isEqualTo(1);
        assertEqualAtTheEnd(db, target, consumer);
    }

    @Test
    void shouldKeepSeededRowsAndDropStaleOnesWhenTheReseedCrashesMidway() throws Exception {
        Target target = Target.of(POSTGRES.database());
        String db = "reseed_crash";
        Relay relay = seededAndAway(db, 9_913, target);
        Map<String, String> onTooOld = Map.of("bootstrap.onTooOld", "snapshot");

        // Crash 1: the table was emptied, its first chunk not applied.
        SnapshotScenario.Watched first = applier(db, target);
        first.failAtChunk = 1;
        crash(consumer(db, first, 1, onTooOld, relay));
        assertThat(first.starts.get()).as("tables begun before crash 1").isEqualTo(1);

        // Crash 2: no chunk was checkpointed, so the table begins (and is emptied) again; four
        // chunks are applied, each its own batch, before the fifth fails.
        SnapshotScenario.Watched second = applier(db, target);
        second.failAtChunk = 5;
        crash(consumer(db, second, 1, onTooOld, relay));
        assertThat(second.starts.get()).as("tables begun before crash 2").isEqualTo(1);
        long seeded = target.count("SELECT count(*) FROM " + target.table(db, "accounts"));
        System.out.println("SnapshotReseedIT rows in the target after crash 2: " + seeded);
        assertThat(seeded).as("rows of four chunks, the rest emptied").isEqualTo(4 * 500L);

        // The restart continues mid-table: nothing is emptied again, nothing stale stays.
        SnapshotScenario.Watched third = applier(db, target);
        Consumer consumer = consumer(db, third, 100, onTooOld, relay);
        Pipeline.awaitUntil(consumer, () -> third.completions.get() > 0, Duration.ofMinutes(2));
        assertThat(third.starts.get()).as("tables begun after the restart").isZero();
        assertEqualAtTheEnd(db, target, consumer);
    }

    /**
     * A relay with a 2 MiB buffer; the target seeded by a snapshot of {@link #ROWS} rows; then,
     * with the consumer away, every seventh row deleted and more than the buffer written, so that
     * its checkpoint falls off.
     */
    private Relay seededAndAway(String db, long serverId, Target target) throws Exception {
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE "
                                + db
                                + ".accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL,"
                                + " note VARCHAR(40))",
                        "INSERT INTO "
                                + db
                                + ".accounts SELECT seq, seq * 10, CONCAT('n', seq) FROM "
                                + db
                                + ".seq_1_to_"
                                + ROWS);
        Relay relay =
                Pipeline.startRelay(
                        SOURCE.server(),
                        work.resolve("relay-" + serverId),
                        serverId,
                        Map.of(
                                "buffer.capacity", "2MiB",
                                "buffer.segmentSize", "512KiB",
                                "snapshot.chunkSize", "500"));
        closing.add(relay);
        SnapshotScenario.Watched seeding = applier(db, target);
        Consumer seed = consumer(db, seeding, 100, Map.of("start", "snapshot"), relay);
        // The completion is signalled inside the batch; its rows commit when the batch ends.
        Pipeline.awaitUntil(
                seed,
                () -> {
                    try {
                        return seeding.completions.get() > 0
                                && target.count(
                                                "SELECT count(*) FROM "
                                                        + target.table(db, "accounts"))
                                        == ROWS;
                    } catch (Exception e) {
                        return false;
                    }
                },
                Duration.ofMinutes(2));
        long checkpoint = seed.status().checkpointScn();
        seed.close();

        SOURCE.server().execute("DELETE FROM " + db + ".accounts WHERE id % 7 = 0");
        for (int k = 0; k < 80; k++) {
            SOURCE.server()
                    .execute(
                            "UPDATE "
                                    + db
                                    + ".accounts SET balance = balance + 1, note = 'away"
                                    + k
                                    + "' WHERE id BETWEEN "
                                    + (k % 20 * 500 + 1)
                                    + " AND "
                                    + (k % 20 * 500 + 500));
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> relay.buffer().oldestScn() > checkpoint);
        return relay;
    }

    /** Waits for the consumer to stop on its callback's failure, and closes it. */
    private static void crash(Consumer consumer) {
        Awaitility.await()
                .atMost(Duration.ofMinutes(1))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        consumer.close();
    }

    private static Target target2() {
        return Target.of(MARIADB_TARGET.server());
    }

    private SnapshotScenario.Watched applier(String db, Target target) throws Exception {
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(db)
                                .lanes(2, new LaneRouter.ByKey())
                                .build());
        closing.add(applier);
        return new SnapshotScenario.Watched(applier);
    }

    private Consumer consumer(
            String db,
            SnapshotScenario.Watched applier,
            int batch,
            Map<String, String> more,
            Relay relay)
            throws Exception {
        Consumer.Builder builder =
                Consumer.builder()
                        .name("reseed-" + db)
                        .relays(List.of(Pipeline.url(relay)))
                        .subscription(Subscription.tables(db + ".*"))
                        .pollTimeout(Duration.ofSeconds(1))
                        .batching(batch, Duration.ofMillis(20))
                        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
                        .callback(applier)
                        .checkpointStore(applier.checkpointStore());
        more.forEach(builder::set);
        Consumer consumer = builder.build();
        consumer.start();
        closing.add(consumer);
        return consumer;
    }

    /** An end marker written last on the source, streamed to the target; then row by row. */
    private void assertEqualAtTheEnd(String db, Target target, Consumer consumer) throws Exception {
        String table = target.table(db, "accounts");
        SOURCE.server().execute("INSERT INTO " + db + ".accounts VALUES (-1, 0, 'end')");
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try {
                        return target.count("SELECT count(*) FROM " + table + " WHERE id = -1") > 0;
                    } catch (Exception e) {
                        return false;
                    }
                },
                Duration.ofMinutes(1));
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = SnapshotScenario.rows(connection, db + ".accounts");
        }
        List<String> copy;
        try (Connection connection = target.connect()) {
            copy = SnapshotScenario.rows(connection, table);
        }
        System.out.println(
                "SnapshotReseedIT db="
                        + db
                        + ", source rows="
                        + source.size()
                        + ", target rows="
                        + copy.size()
                        + ", source md5="
                        + SnapshotScenario.md5(source)
                        + ", target md5="
                        + SnapshotScenario.md5(copy));
        assertThat(copy).hasSameSizeAs(source);
        assertThat(SnapshotScenario.md5(copy)).isEqualTo(SnapshotScenario.md5(source));
        assertThat(copy).isEqualTo(source);
    }
}
