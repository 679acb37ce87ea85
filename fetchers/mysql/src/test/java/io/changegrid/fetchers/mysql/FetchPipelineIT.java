package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fetch pipeline ({@link FetchPipeline}) publishes what the single-threaded fetcher publishes,
 * byte for byte: two fetchers, pipeline on and off, read the same binlog of a private server while
 * a seeded workload writes many more rows events than the pipeline's ring of row buffers holds
 * (rows of very different sizes, so a buffer reused too early would show), in tables that are
 * captured, one that is not (its rows are left unread by name on the client's thread), a DDL in the
 * middle and a table whose TIME column the library decodes.
 */
class FetchPipelineIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final long SEED = Long.getLong("fetchPipelineIT.seed", 20261126L);

    @TempDir Path onState;
    @TempDir Path offState;

    @BeforeAll
    static void createSchema() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE pipe",
                        "CREATE TABLE pipe.wide (id INT PRIMARY KEY, v VARCHAR(4000),"
                                + " d DECIMAL(12,2), t DATETIME(3)) CHARACTER SET utf8mb4",
                        "CREATE TABLE pipe.cells (id INT PRIMARY KEY, tm TIME, e ENUM('a','b'))",
                        "CREATE TABLE pipe.ignored (id INT PRIMARY KEY, v TEXT)",
                        "CREATE TABLE pipe.big (id INT PRIMARY KEY, v VARCHAR(2000))");
    }

    @Test
    void shouldPublishTheSameFramesWithAndWithoutThePipelineWhenTheRingComesRoundOften()
            throws Exception {
        TableFilter capture = TableFilter.of(List.of("pipe.*"), List.of("pipe.ignored"));
        try (RunningFetcher on =
                        RunningFetcher.startAsGiven(config(capture, 9_201, true), onState, null);
                RunningFetcher off =
                        RunningFetcher.startAsGiven(
                                config(capture, 9_202, false), offState, null)) {
            awaitConnected(on);
            awaitConnected(off);

            int rows = writeWorkload(new Random(SEED));

            on.sink.awaitRowEvents(rows);
            off.sink.awaitRowEvents(rows);
            List<byte[]> expected = off.sink.transactionFrames();
            List<byte[]> got = on.sink.transactionFrames();
            assertThat(got).as("transactions, seed=" + SEED).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                assertThat(got.get(i))
                        .as("transaction " + i + ", seed=" + SEED)
                        .isEqualTo(expected.get(i));
            }
            assertThat(
                            on.sink.transactions().stream()
                                    .map(CollectingSink.Published::resumePosition))
                    .containsExactlyElementsOf(
                            off.sink.transactions().stream()
                                    .map(CollectingSink.Published::resumePosition)
                                    .toList());
            assertThat(on.fetcher.position()).isEqualTo(off.fetcher.position());
            assertThat(on.failure()).isNull();
            assertThat(off.failure()).isNull();
        }
    }

    @Test
    void shouldStopWithTheAssemblersFailureWhenItFailsWhileTheReaderWaitsForRoom(
            @TempDir Path state) throws Exception {
        // One transaction of ~2.5 MB in several hundred rows events, past a 64 KiB limit early:
        // the encoder thread fails while the client's thread still has hundreds of events to
        // hand on, more than the handoff holds. The connection must still end and the failure
        // reach the control loop: the encoder thread never waits for the client's thread.
        TableFilter capture = TableFilter.of(List.of("pipe.big"), List.of());
        BinlogFetcherConfig base =
                RunningFetcher.config(
                        MARIADB.server(), capture, new StartPosition.Current(), 64 << 10);
        try (RunningFetcher running =
                RunningFetcher.startAsGiven(base.withPipeline(true), state, null)) {
            awaitConnected(running);
            try (Connection connection = MARIADB.server().connect();
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(false);
                for (int batch = 0; batch < 25; batch++) {
                    StringBuilder sql = new StringBuilder("INSERT INTO pipe.big VALUES ");
                    for (int i = 0; i < 100; i++) {
                        sql.append(i == 0 ? "" : ",")
                                .append("(")
                                .append(batch * 100 + i)
                                .append(", REPEAT('q', 1000))");
                    }
                    statement.execute(sql.toString());
                }
                connection.commit();
            }

            assertThat(running.awaitFailure()).isInstanceOf(TransactionTooLargeException.class);
        }
    }

    /** Writes the workload; returns the row events the captured tables get. */
    private static int writeWorkload(Random random) throws Exception {
        int captured = 0;
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            int nextId = 1;
            for (int transaction = 0; transaction < 60; transaction++) {
                if (transaction == 30) {
                    statement.execute("ALTER TABLE pipe.wide ADD COLUMN extra INT NULL");
                }
                connection.setAutoCommit(false);
                int count = 1 + random.nextInt(40);
                StringBuilder wide =
                        new StringBuilder("INSERT INTO pipe.wide (id, v, d, t) VALUES ");
                StringBuilder ignored = new StringBuilder("INSERT INTO pipe.ignored VALUES ");
                for (int i = 0; i < count; i++) {
                    int id = nextId++;
                    String sep = i == 0 ? "" : ",";
                    wide.append(sep)
                            .append("(")
                            .append(id)
                            .append(", REPEAT('")
                            .append((char) ('a' + random.nextInt(26)))
                            .append("', ")
                            .append(random.nextInt(4000))
                            .append("), ")
                            .append(random.nextInt(1_000_000))
                            .append(".25, '2026-11-26 12:00:00.")
                            .append(100 + random.nextInt(900))
                            .append("')");
                    ignored.append(sep)
                            .append("(")
                            .append(id)
                            .append(", REPEAT('z', ")
                            .append(random.nextInt(3000))
                            .append("))");
                }
                statement.execute(wide.toString());
                statement.execute(ignored.toString());
                statement.execute(
                        "INSERT INTO pipe.cells VALUES ("
                                + transaction
                                + ", '"
                                + random.nextInt(838)
                                + ":59:58', 'b')");
                captured += count + 1;
                if (transaction % 3 == 0) {
                    // One UPDATE and one DELETE statement over many rows: multi-row events.
                    int changed =
                            statement.executeUpdate(
                                    "UPDATE pipe.wide SET v = CONCAT(v, 'x') WHERE id % 3 = "
                                            + random.nextInt(3));
                    int deleted =
                            statement.executeUpdate(
                                    "DELETE FROM pipe.wide WHERE id % 17 = " + random.nextInt(17));
                    captured += changed + deleted;
                }
                connection.commit();
                connection.setAutoCommit(true);
            }
        }
        return captured;
    }

    private static BinlogFetcherConfig config(TableFilter capture, int serverId, boolean pipeline) {
        BinlogFetcherConfig base =
                RunningFetcher.config(
                        MARIADB.server(), capture, new StartPosition.Current(), 64 << 20);
        return new BinlogFetcherConfig(
                        base.host(),
                        base.port(),
                        base.user(),
                        base.password(),
                        serverId,
                        base.sourceId(),
                        capture,
                        CapturePlan.everything(),
                        base.start(),
                        base.heartbeatInterval(),
                        base.connectTimeout(),
                        base.reconnectBackoffMax(),
                        base.maxTransactionBytes())
                .withPipeline(pipeline);
    }

    private static void awaitConnected(RunningFetcher running) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                running.sink.all().stream()
                                                .anyMatch(CollectingSink.Published::isHeartbeat)
                                        || running.failure() != null);
        assertThat(running.failure()).isNull();
    }
}
