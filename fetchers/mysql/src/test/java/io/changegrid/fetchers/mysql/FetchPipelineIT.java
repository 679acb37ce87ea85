package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.YamlConfigFile;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.policy.config.PolicyConfig;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
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
 * middle and a table whose TIME column the library decodes; and the same with policies that filter,
 * mask and add columns.
 */
class FetchPipelineIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final long SEED = Long.getLong("fetchPipelineIT.seed", 20261126L);

    @TempDir Path onState;
    @TempDir Path offState;

    @BeforeAll
    static void createSchema() throws Exception {
        createTables("pipe");
        createTables("policed");
    }

    private static void createTables(String database) throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE " + database,
                        "CREATE TABLE "
                                + database
                                + ".wide (id INT PRIMARY KEY, v VARCHAR(4000),"
                                + " d DECIMAL(12,2), t DATETIME(3)) CHARACTER SET utf8mb4",
                        "CREATE TABLE "
                                + database
                                + ".cells (id INT PRIMARY KEY, tm TIME, e ENUM('a','b'))",
                        "CREATE TABLE " + database + ".ignored (id INT PRIMARY KEY, v TEXT)",
                        "CREATE TABLE " + database + ".big (id INT PRIMARY KEY, v VARCHAR(2000))");
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

            int rows = writeWorkload(new Random(SEED), "pipe");

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
    void shouldPublishTheSameFramesWithAndWithoutThePipelineWithPolicies(
            @TempDir Path policedOn, @TempDir Path policedOff) throws Exception {
        // Predicates, masks and added columns, on tables whose rows are read in place and one whose
        // TIME column the library decodes, across the DDL in the middle of the workload.
        TableFilter capture = TableFilter.of(List.of("policed.*"), List.of("policed.ignored"));
        CapturePlan plan =
                CapturePlan.of(
                        PolicyConfig.parse(
                                YamlConfigFile.parse(
                                        """
                                        policies:
                                          - include: [policed.wide]
                                            where: "d < 500000 AND v IS NOT NULL"
                                            transform:
                                              mask: {v: {hash: {salt: s}}}
                                              add: {src_db: {source: database}, at: {source: scn}}
                                          - include: [policed.cells]
                                            where: "e = 'b'"
                                            transform:
                                              mask: {tm: {fixed: '#'}}
                                        """,
                                        "test")),
                        CapturePlan.ALL_PARTITIONS,
                        "capture.partition");
        try (RunningFetcher on =
                        RunningFetcher.startAsGiven(
                                config(capture, plan, 9_203, true), policedOn, null);
                RunningFetcher off =
                        RunningFetcher.startAsGiven(
                                config(capture, plan, 9_204, false), policedOff, null)) {
            // The frames carry the policies' output schemas.
            on.sink.decodeWith(on.fetcher.publishedSchemas());
            off.sink.decodeWith(off.fetcher.publishedSchemas());
            awaitConnected(on);
            awaitConnected(off);

            writeWorkload(new Random(SEED + 1), "policed");
            BinlogPosition end = binlogEnd();

            for (RunningFetcher running : List.of(on, off)) {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        end.equals(
                                                        ResumePosition.parse(
                                                                        running.fetcher
                                                                                .position()
                                                                                .resumePosition())
                                                                .position())
                                                || running.failure() != null);
            }
            assertThat(on.failure()).isNull();
            assertThat(off.failure()).isNull();
            List<byte[]> expected = off.sink.transactionFrames();
            List<byte[]> got = on.sink.transactionFrames();
            assertThat(expected.size()).as("transactions published").isGreaterThan(40);
            assertThat(got).as("transactions, seed=" + (SEED + 1)).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                assertThat(got.get(i))
                        .as("transaction " + i + ", seed=" + (SEED + 1))
                        .isEqualTo(expected.get(i));
            }
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

    /**
     * Writes the workload into {@code database}; returns the row events its captured tables get.
     */
    private static int writeWorkload(Random random, String database) throws Exception {
        int captured = 0;
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            int nextId = 1;
            for (int transaction = 0; transaction < 60; transaction++) {
                if (transaction == 30) {
                    statement.execute(
                            "ALTER TABLE " + database + ".wide ADD COLUMN extra INT NULL");
                }
                connection.setAutoCommit(false);
                int count = 1 + random.nextInt(40);
                StringBuilder wide =
                        new StringBuilder(
                                "INSERT INTO " + database + ".wide (id, v, d, t) VALUES ");
                StringBuilder ignored =
                        new StringBuilder("INSERT INTO " + database + ".ignored VALUES ");
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
                        "INSERT INTO "
                                + database
                                + ".cells VALUES ("
                                + transaction
                                + ", '"
                                + random.nextInt(838)
                                + ":59:58', 'b')");
                captured += count + 1;
                if (transaction % 3 == 0) {
                    // One UPDATE and one DELETE statement over many rows: multi-row events.
                    int changed =
                            statement.executeUpdate(
                                    "UPDATE "
                                            + database
                                            + ".wide SET v = CONCAT(v, 'x') WHERE id % 3 = "
                                            + random.nextInt(3));
                    int deleted =
                            statement.executeUpdate(
                                    "DELETE FROM "
                                            + database
                                            + ".wide WHERE id % 17 = "
                                            + random.nextInt(17));
                    captured += changed + deleted;
                }
                connection.commit();
                connection.setAutoCommit(true);
            }
        }
        return captured;
    }

    private static BinlogPosition binlogEnd() throws Exception {
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement();
                ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
            assertThat(status.next()).as("the server writes a binlog").isTrue();
            return new BinlogPosition(status.getString(1), status.getLong(2));
        }
    }

    private static BinlogFetcherConfig config(TableFilter capture, int serverId, boolean pipeline) {
        return config(capture, CapturePlan.everything(), serverId, pipeline);
    }

    private static BinlogFetcherConfig config(
            TableFilter capture, CapturePlan plan, int serverId, boolean pipeline) {
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
                        plan,
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
