package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bootstrap end to end (docs/bootstrap.md): a MariaDB source table with existing rows snapshotted
 * by a relay into the PostgreSQL applier while a writer changes it and a chunk hook writes between
 * the watermarks of every other chunk; the target's rows (and their MD5) end equal to the source's.
 * Also when the relay serving the snapshot is closed mid-snapshot and the consumer finishes it on a
 * replica, and when a consumer that fell off a relay's buffer (410) bootstraps by itself.
 */
class SnapshotApplierIT {

    /** 200,000 by default; the 1M-row run: {@code -Dchangegrid.snapshotRows=1000000}. */
    private static final int ROWS = Integer.getInteger("changegrid.snapshotRows", 200_000);

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

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

    @Test
    void shouldEndEqualToTheSourceWhenANewApplierStartsWithASnapshot() throws Exception {
        String db = "snap_new";
        createTable(db, ROWS);
        Relay relay = relay(db, 9_901, Map.of("snapshot.chunkSize", "2000"));
        try (Connection hookConnection = SOURCE.server().connect()) {
            AtomicInteger hooked =
                    SnapshotScenario.hookWrites(relay, hookConnection, db + ".accounts");
            SnapshotScenario.Writer writer = writer(db, ROWS, true);
            Thread writing = writer.start();
            SnapshotScenario.Watched applier = applier(db);
            Consumer consumer = consumer(db, applier, Map.of("start", "snapshot"), relay);
            try {
                Pipeline.awaitUntil(
                        consumer, () -> applier.completions.get() > 0, Duration.ofMinutes(15));
            } finally {
                writer.stop.set(true);
                writing.join();
                relay.snapshots().chunks().hook(null);
            }
            assertThat(writer.failure.get()).as("writer failure").isNull();
            assertThat(hooked.get()).as("chunks written between watermarks").isGreaterThan(10);
            assertThat(writer.writes.get()).as("concurrent writes").isGreaterThan(100);
            assertThat(applier.snapshotRows.get()).isGreaterThan(ROWS / 2);
            assertEqualAtTheEnd(db, consumer);
        }
    }

    @Test
    void shouldFinishTheSnapshotOnAReplicaWhenTheServingRelayIsClosedMidway() throws Exception {
        String db = "snap_failover";
        int rows = ROWS / 4;
        createTable(db, rows);
        Relay first = relay(db, 9_902, Map.of("snapshot.chunkSize", "1000"));
        Relay second = relay(db, 9_903, Map.of("snapshot.chunkSize", "1000"));
        CountDownLatch midway = new CountDownLatch(1);
        AtomicInteger firstChunks = new AtomicInteger();
        first.snapshots()
                .chunks()
                .hook(
                        (table, chunk) -> {
                            if (firstChunks.incrementAndGet() == 10) {
                                midway.countDown();
                            }
                        });
        try (Connection hookConnection = SOURCE.server().connect()) {
            SnapshotScenario.hookWrites(second, hookConnection, db + ".accounts");
            SnapshotScenario.Writer writer = writer(db, rows, true);
            Thread writing = writer.start();
            SnapshotScenario.Watched applier = applier(db);
            Consumer consumer = consumer(db, applier, Map.of("start", "snapshot"), first, second);
            try {
                assertThat(midway.await(5, TimeUnit.MINUTES)).as("ten chunks served").isTrue();
                first.close(); // mid-snapshot: the consumer goes on with its cursor elsewhere
                Pipeline.awaitUntil(
                        consumer, () -> applier.completions.get() > 0, Duration.ofMinutes(10));
            } finally {
                writer.stop.set(true);
                writing.join();
                second.snapshots().chunks().hook(null);
            }
            assertThat(writer.failure.get()).as("writer failure").isNull();
            assertThat(consumer.status().relay()).contains(":" + second.httpPort());
            assertThat(applier.snapshotRows.get()).isGreaterThan(rows / 2);
            assertEqualAtTheEnd(db, consumer);
        }
    }

    @Test
    void shouldBootstrapByItselfWhenItFellOffTheBufferAndOnTooOldIsSnapshot() throws Exception {
        String db = "snap_fallen";
        int rows = 20_000;
        createTable(db, rows);
        Relay relay =
                relay(
                        db,
                        9_904,
                        Map.of(
                                "buffer.capacity", "2MiB",
                                "buffer.segmentSize", "512KiB",
                                "snapshot.chunkSize", "1000"));
        // Live only at first: the rows that existed before are not copied.
        SnapshotScenario.Watched before = applier(db);
        Consumer live = consumer(db, before, Map.of(), relay);
        SOURCE.server().execute("UPDATE " + db + ".accounts SET note = 'live' WHERE id <= 100");
        Pipeline.awaitUntil(
                live,
                () -> {
                    try {
                        return target().count("SELECT count(*) FROM " + targetTable(db)) >= 100;
                    } catch (Exception e) {
                        return false;
                    }
                },
                Duration.ofMinutes(2));
        long checkpoint = live.status().checkpointScn();
        live.close();

        // While it is away, more than the relay's buffer is written: its checkpoint falls off.
        for (int k = 0; k < 80; k++) {
            SOURCE.server()
                    .execute(
                            "UPDATE "
                                    + db
                                    + ".accounts SET balance = balance + 1, note = 'away"
                                    + k
                                    + "' WHERE id BETWEEN "
                                    + (k % 40 * 500 + 1)
                                    + " AND "
                                    + (k % 40 * 500 + 500));
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> relay.buffer().oldestScn() > checkpoint);

        try (Connection hookConnection = SOURCE.server().connect()) {
            SnapshotScenario.hookWrites(relay, hookConnection, db + ".accounts");
            SnapshotScenario.Watched applier = applier(db);
            Consumer consumer =
                    consumer(db, applier, Map.of("bootstrap.onTooOld", "snapshot"), relay);
            try {
                Pipeline.awaitUntil(
                        consumer, () -> applier.completions.get() > 0, Duration.ofMinutes(5));
            } finally {
                relay.snapshots().chunks().hook(null);
            }
            assertThat(applier.snapshotRows.get()).isGreaterThan(rows / 2);
            assertEqualAtTheEnd(db, consumer);
        }
    }

    private void createTable(String db, int rows) throws Exception {
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
                                + rows);
    }

    private Relay relay(String db, long serverId, Map<String, String> more) throws Exception {
        Relay relay =
                Pipeline.startRelay(
                        SOURCE.server(), work.resolve("relay-" + serverId), serverId, more);
        closing.add(relay);
        return relay;
    }

    private SnapshotScenario.Writer writer(String db, int rows, boolean deletes) {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("SnapshotApplierIT seed=" + seed + ", db=" + db);
        return new SnapshotScenario.Writer(
                SOURCE.server()::connect, db + ".accounts", rows, seed, deletes);
    }

    private SnapshotScenario.Watched applier(String db) throws Exception {
        Target target = target();
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(db)
                                .lanes(2, new io.changegrid.appliers.batch.LaneRouter.ByKey())
                                .build());
        closing.add(applier);
        return new SnapshotScenario.Watched(applier);
    }

    private Consumer consumer(
            String db, SnapshotScenario.Watched applier, Map<String, String> more, Relay... relays)
            throws Exception {
        List<String> urls = new ArrayList<>();
        for (Relay relay : relays) {
            urls.add(Pipeline.url(relay));
        }
        Consumer.Builder builder =
                Consumer.builder()
                        .name("snapshot-" + db)
                        .relays(urls)
                        .subscription(Subscription.tables(db + ".*"))
                        .pollTimeout(Duration.ofSeconds(1))
                        .batching(100, Duration.ofMillis(20))
                        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
                        .callback(applier)
                        .checkpointStore(applier.checkpointStore());
        more.forEach(builder::set);
        Consumer consumer = builder.build();
        consumer.start();
        closing.add(consumer);
        return consumer;
    }

    private static Target target() {
        return Target.of(POSTGRES.database());
    }

    private static String targetTable(String db) {
        return target().table(db, "accounts");
    }

    /** An end marker written last on the source, streamed to the target; then row by row. */
    private void assertEqualAtTheEnd(String db, Consumer consumer) throws Exception {
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO " + db + ".accounts VALUES (-1, 0, 'end')");
        }
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try {
                        return target().count(
                                                "SELECT count(*) FROM "
                                                        + targetTable(db)
                                                        + " WHERE id = -1")
                                > 0;
                    } catch (Exception e) {
                        return false;
                    }
                },
                Duration.ofMinutes(2));
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = SnapshotScenario.rows(connection, db + ".accounts");
        }
        List<String> copy;
        try (Connection connection = target().connect()) {
            copy = SnapshotScenario.rows(connection, targetTable(db));
        }
        System.out.println(
                "SnapshotApplierIT db="
                        + db
                        + ", rows="
                        + source.size()
                        + ", source md5="
                        + SnapshotScenario.md5(source)
                        + ", target md5="
                        + SnapshotScenario.md5(copy));
        assertThat(copy).hasSameSizeAs(source);
        assertThat(SnapshotScenario.md5(copy)).isEqualTo(SnapshotScenario.md5(source));
        assertThat(copy).isEqualTo(source);
    }
}
