package io.changegrid.fetchers.logminer;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.fetchers.logminer.assembly.CollectingSink;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.logminer.RedoRenderer;
import io.changegrid.gridkit.logminer.RedoRow;
import io.changegrid.gridkit.logminer.StandInColumn;
import io.changegrid.testkit.PostgresServerExtension;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * LOB columns through the fetcher on the stand-in: a CLOB value inline in {@code SQL_REDO} is
 * carried; a LOB written as LogMiner's separate LOB operations ({@code SEL_LOB_LOCATOR}, {@code
 * LOB_WRITE}) stops the fetcher at that transaction's commit naming table and column, with every
 * commit before it published and the position before it, so a restart meets it again: never
 * skipped.
 */
class LogMinerLobIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final List<StandInColumn> NOTES =
            List.of(
                    StandInColumn.number("ID", 10, 0, false),
                    StandInColumn.of("BODY", "CLOB", 4000));
    private static final LocalDateTime TIME = LocalDateTime.of(2026, 11, 26, 9, 0);

    private final List<RedoRow> rows = new ArrayList<>();
    private long scn;

    @Test
    void shouldCarryInlineClobAndStopNamingTableAndColumnWhenLobIsWrittenApart() throws Exception {
        LogMinerStandIn standIn = LogMinerStandIn.create(POSTGRES.server(), "lob");
        standIn.defineTable("SHOP", "NOTES", NOTES, List.of("ID"), true);
        scn = standIn.currentScn();
        var config = RunningFetcher.config(standIn, List.of("SHOP.NOTES"), "current");
        String position;
        try (var running = RunningFetcher.start(config, null, new CollectingSink())) {
            Map<String, Object> inline = new LinkedHashMap<>();
            inline.put("ID", 1L);
            inline.put("BODY", "inline 'clob' " + "x".repeat(1500));
            transaction(
                    1,
                    RedoRow.INSERT,
                    "INSERT",
                    RedoRenderer.insert("SHOP", "NOTES", NOTES, inline));
            Map<String, Object> empty = new LinkedHashMap<>();
            empty.put("ID", 2L);
            empty.put("BODY", "");
            String emptyClob =
                    RedoRenderer.insert("SHOP", "NOTES", NOTES, empty)
                            .replace("''", "EMPTY_CLOB()");
            begin(2);
            row(2, RedoRow.INSERT, "INSERT", emptyClob);
            row(
                    2,
                    9,
                    "SEL_LOB_LOCATOR",
                    "DECLARE \n loc_c CLOB; \n buf_c VARCHAR2(6426);\nBEGIN\n select \"BODY\" into loc_c"
                            + " from \"SHOP\".\"NOTES\" where \"ID\" = '2' for update;");
            row(
                    2,
                    10,
                    "LOB_WRITE",
                    "buf_c := 'written apart';\n  dbms_lob.write(loc_c, 13, 1, buf_c);\nEND;");
            row(2, RedoRow.COMMIT, "COMMIT", "commit;");
            standIn.append(rows, List.of(), scn);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> running.failure() != null);
            assertThat(running.failure())
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining("operation=SEL_LOB_LOCATOR")
                    .hasMessageContaining("table=SHOP.NOTES")
                    .hasMessageContaining("column=BODY");
            List<ChangeEvent> events = running.sink.rowEvents();
            assertThat(events).hasSize(1);
            assertThat(events.get(0).after()[1]).isEqualTo(inline.get("BODY"));
            position = running.fetcher.position().resumePosition();
        }
        // Restarted where it stopped, it refuses the same transaction again: nothing is skipped.
        try (var running = RunningFetcher.start(config, position, new CollectingSink())) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> running.failure() != null);
            assertThat(running.failure()).hasMessageContaining("column=BODY");
            assertThat(running.sink.rowEvents()).isEmpty();
        }
    }

    private void transaction(int xid, int code, String operation, String sql) {
        begin(xid);
        row(xid, code, operation, sql);
        row(xid, RedoRow.COMMIT, "COMMIT", "commit;");
    }

    private void begin(int xid) {
        row(xid, RedoRow.START, "START", "set transaction read write;");
    }

    private void row(int xid, int code, String operation, String sql) {
        scn++;
        boolean control = code == RedoRow.START || code == RedoRow.COMMIT;
        rows.add(
                new RedoRow(
                        scn,
                        code,
                        operation,
                        sql,
                        TIME,
                        new byte[] {0, 1, 0, 2, 0, 0, 0, (byte) xid},
                        false,
                        control ? null : "SHOP",
                        control ? null : "NOTES",
                        "AAASs1AAE00000000" + xid,
                        false,
                        scn,
                        1,
                        String.format(" 0x000001.%08x.0010 ", scn)));
    }
}
