package io.changegrid.fetchers.logminer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.fetchers.logminer.assembly.CollectingSink;
import io.changegrid.fetchers.logminer.assembly.TimelineScn;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.logminer.LogMinerWorkload;
import io.changegrid.gridkit.logminer.RedoRow;
import io.changegrid.testkit.PostgresServerExtension;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The mining window is capped at the redo flushed: rows an open transaction generated that are
 * still in the stand-in's log buffer when the current SCN has moved past them are written out by
 * the fetcher's flush before it mines, so the transaction is published whole at its commit. The
 * stand-in refuses a session ending above the flushed SCN (where Oracle would silently return a
 * window without those rows), so a fetcher mining past the flush cannot pass this test.
 */
class LogMinerRedoFlushIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final LocalDateTime TIME = LocalDateTime.of(2026, 11, 26, 9, 30);

    @Test
    void shouldPublishRowsStillInTheLogBufferWhenTheCurrentScnHasPassedThem() throws Exception {
        LogMinerStandIn standIn = LogMinerStandIn.create(POSTGRES.server(), "flush");
        LogMinerWorkload.define(standIn);
        long s = standIn.currentScn();
        var config = RunningFetcher.config(standIn, List.of("SHOP.DOCS"), "current");
        try (var running = RunningFetcher.start(config, null, new CollectingSink())) {
            // An open transaction's START and INSERT, unflushed, while the SCN moves on by 50.
            standIn.appendUnflushed(
                    List.of(
                            row(s + 1, RedoRow.START, "START", "set transaction read write;"),
                            row(
                                    s + 2,
                                    RedoRow.INSERT,
                                    "INSERT",
                                    "insert into \"SHOP\".\"DOCS\"(\"ID\",\"BODY\") values ('7','in the buffer');")),
                    s + 50);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> running.failure() != null || flushedTo(standIn) >= s + 50);
            assertThat(running.failure()).isNull();
            assertThat(count(standIn, "SELECT count(*) FROM logmnr_buffer")).isZero();
            // Mined past s + 50 (a heartbeat there) before the commit arrives: the START and INSERT
            // were read in a window that ended after them.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    running.failure() != null
                                            || running.fetcher.position().scn()
                                                    > TimelineScn.heartbeat(s + 50));
            assertThat(running.failure()).isNull();
            standIn.append(
                    List.of(row(s + 51, RedoRow.COMMIT, "COMMIT", "commit;")), List.of(), s + 51);
            var published = running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty());
            assertThat(published.rowEvents()).hasSize(1);
            assertThat(published.rowEvents().get(0).after()).containsExactly(7L, "in the buffer");
            assertThat(running.failure()).isNull();
        }
    }

    @Test
    void shouldNameTheFlushTableWhenItIsMissingAtStart() throws Exception {
        LogMinerStandIn standIn = LogMinerStandIn.create(POSTGRES.server(), "noflush");
        LogMinerWorkload.define(standIn);
        standIn.execute("DROP TABLE log_mining_flush CASCADE");
        assertThatThrownBy(
                        () ->
                                LogMinerFetcher.open(
                                        RunningFetcher.config(
                                                standIn, List.of("SHOP.DOCS"), "current"),
                                        null,
                                        new CollectingSink()))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("1 problems")
                .hasMessageContaining("table=LOG_MINING_FLUSH")
                .hasMessageContaining("CREATE TABLE LOG_MINING_FLUSH (LAST_SCN NUMBER(19))");
    }

    private static long flushedTo(LogMinerStandIn standIn) throws SQLException {
        return count(standIn, "SELECT last_scn FROM log_mining_flush");
    }

    private static long count(LogMinerStandIn standIn, String sql) throws SQLException {
        String url = standIn.jdbcUrl();
        try (var connection = POSTGRES.server().connect(url.substring(url.lastIndexOf('/') + 1));
                var statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static RedoRow row(long scn, int code, String operation, String sql) {
        boolean control = code == RedoRow.START || code == RedoRow.COMMIT;
        return new RedoRow(
                scn,
                code,
                operation,
                sql,
                TIME,
                new byte[] {0, 3, 0, 4, 0, 0, 0, 9},
                false,
                control ? null : "SHOP",
                control ? null : "DOCS",
                "AAASs1AAE000000007",
                false,
                scn,
                1,
                String.format(" 0x000001.%08x.0010 ", scn));
    }
}
