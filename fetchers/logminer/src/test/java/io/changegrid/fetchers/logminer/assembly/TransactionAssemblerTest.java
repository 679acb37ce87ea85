package io.changegrid.fetchers.logminer.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.fetchers.logminer.schema.OracleCatalog;
import io.changegrid.fetchers.logminer.schema.OracleColumn;
import io.changegrid.fetchers.logminer.schema.OracleType;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableFilter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rows of V$LOGMNR_CONTENTS, written by hand in LogMiner's shape, into transactions. */
class TransactionAssemblerTest {

    private static final OracleCatalog.TableName ITEMS =
            new OracleCatalog.TableName("SHOP", "ITEMS");

    private final Map<OracleCatalog.TableName, OracleCatalog.Definition> dictionary =
            new HashMap<>();
    private final CollectingSink sink = new CollectingSink();

    TransactionAssemblerTest() {
        define(
                new OracleColumn("ID", OracleType.of("NUMBER", 22, 10, 0), false),
                new OracleColumn("NAME", OracleType.of("VARCHAR2", 40, null, null), true));
    }

    private void define(OracleColumn... columns) {
        dictionary.put(
                ITEMS,
                new OracleCatalog.Definition(ITEMS, List.of(columns), List.of("ID"), List.of()));
    }

    private TransactionAssembler assembler(ResumePosition start, CollectingSink into) {
        var registry = new SchemaRegistry();
        var router =
                new CaptureRouter(
                        TableFilter.of(List.of("SHOP.*"), List.of()),
                        CapturePlan.everything(),
                        registry);
        var assembler =
                new TransactionAssembler(
                        1,
                        router,
                        registry,
                        dictionary::get,
                        into,
                        1 << 20,
                        Duration.ofHours(1),
                        start);
        assembler.bind(dictionary.get(ITEMS));
        into.decodeWith(registry);
        return assembler;
    }

    private TransactionAssembler assembler() {
        return assembler(new ResumePosition(100, -1), sink);
    }

    private static ContentsRow control(long scn, int op, String xid) {
        return new ContentsRow(
                scn,
                op,
                null,
                1_000L * scn,
                xid,
                false,
                null,
                null,
                "AAAAAAAAAAAAAAAAAA",
                false,
                null,
                1,
                1,
                rs(scn, 0));
    }

    private static ContentsRow commit(long scn, String xid, int thread, int block) {
        return new ContentsRow(
                scn,
                OperationCode.COMMIT,
                "commit;",
                1_000L * scn,
                xid,
                false,
                null,
                null,
                "AAAAAAAAAAAAAAAAAA",
                false,
                null,
                1,
                thread,
                rs(scn, block));
    }

    private static ContentsRow dml(long scn, String xid, String rowId, String sql) {
        int op =
                sql.startsWith("insert")
                        ? OperationCode.INSERT
                        : sql.startsWith("update") ? OperationCode.UPDATE : OperationCode.DELETE;
        return new ContentsRow(
                scn,
                op,
                sql,
                1_000L * scn,
                xid,
                false,
                "SHOP",
                "ITEMS",
                rowId,
                false,
                null,
                1,
                1,
                rs(scn, 1));
    }

    private static ContentsRow undo(long scn, String xid, String rowId, String sql) {
        ContentsRow row = dml(scn, xid, rowId, sql);
        return new ContentsRow(
                row.scn(),
                row.operationCode(),
                sql,
                row.timestampMillis(),
                xid,
                false,
                "SHOP",
                "ITEMS",
                rowId,
                true,
                null,
                1,
                1,
                row.rsId());
    }

    private static String rs(long scn, int block) {
        return String.format(" 0x%06x.%08x.%04x ", 1, scn, block);
    }

    private static String insert(int id, String name) {
        return "insert into \"SHOP\".\"ITEMS\"(\"ID\",\"NAME\") values ('"
                + id
                + "','"
                + name.replace("'", "''")
                + "');";
    }

    private static String deleteOf(int id, String name) {
        return "delete from \"SHOP\".\"ITEMS\" where \"ID\" = '"
                + id
                + "' and \"NAME\" = '"
                + name
                + "';";
    }

    private static void feed(TransactionAssembler assembler, List<ContentsRow> rows, long windowEnd)
            throws InterruptedException {
        for (ContentsRow row : rows) {
            assembler.row(row);
        }
        assembler.endOfWindow(windowEnd);
    }

    private static List<Object> ids(CollectingSink.Published transaction) {
        return transaction.rowEvents().stream()
                .map(e -> (e.after() != null ? e.after() : e.before())[0])
                .toList();
    }

    @Test
    void shouldPublishWholeTransactionAtCommitWhenRowsInterleave() throws Exception {
        var assembler = assembler();
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "A1"),
                        control(102, OperationCode.START, "B1"),
                        dml(103, "A1", "R1", insert(1, "a")),
                        dml(104, "B1", "R2", insert(2, "b")),
                        dml(105, "A1", "R3", insert(3, "c")),
                        commit(106, "B1", 1, 1),
                        commit(107, "A1", 1, 1)),
                110);
        assertThat(sink.transactions())
                .extracting(CollectingSink.Published::xid)
                .containsExactly("B1", "A1");
        assertThat(ids(sink.transactions().get(1))).containsExactly(1L, 3L);
        assertThat(sink.transactions().get(1).scn()).isEqualTo(TimelineScn.of(107, 0));
    }

    @Test
    void shouldDiscardTransactionWhenRolledBack() throws Exception {
        var assembler = assembler();
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "A1"),
                        dml(102, "A1", "R1", insert(1, "a")),
                        control(103, OperationCode.ROLLBACK, "A1")),
                110);
        assertThat(sink.transactions()).isEmpty();
        assertThat(assembler.openTransactions()).isZero();
    }

    @Test
    void shouldUndoLatestRowOfSameRowIdWhenRolledBackToSavepoint() throws Exception {
        var assembler = assembler();
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "A1"),
                        dml(102, "A1", "R1", insert(1, "a")),
                        // SAVEPOINT s; INSERT 2; UPDATE 1; ROLLBACK TO s: undo rows come latest
                        // first
                        dml(103, "A1", "R2", insert(2, "b")),
                        dml(
                                104,
                                "A1",
                                "R1",
                                "update \"SHOP\".\"ITEMS\" set \"NAME\" = 'z' where \"ID\" = '1' and \"NAME\" = 'a';"),
                        undo(
                                105,
                                "A1",
                                "R1",
                                "update \"SHOP\".\"ITEMS\" set \"NAME\" = 'a' where \"ID\" = '1' and \"NAME\" = 'z';"),
                        undo(105, "A1", "R2", deleteOf(2, "b")),
                        dml(106, "A1", "R3", insert(3, "c")),
                        commit(107, "A1", 1, 1)),
                110);
        var published = sink.transactions().get(0);
        assertThat(published.rowEvents())
                .extracting(ChangeEvent::operation)
                .containsExactly(Operation.INSERT, Operation.INSERT);
        assertThat(ids(published)).containsExactly(1L, 3L);
        assertThat(published.rowEvents().get(0).after()[1]).isEqualTo("a");
    }

    @Test
    void shouldJoinPiecesWhenSqlRedoContinuesWithCsf() throws Exception {
        var assembler = assembler();
        String sql = insert(1, "x".repeat(30) + "'" + "y".repeat(5));
        List<ContentsRow> rows = new ArrayList<>(List.of(control(101, OperationCode.START, "A1")));
        for (int from = 0; from < sql.length(); from += 9) {
            ContentsRow piece =
                    dml(102, "A1", "R1", sql.substring(from, Math.min(sql.length(), from + 9)));
            boolean more = from + 9 < sql.length();
            rows.add(
                    new ContentsRow(
                            102,
                            OperationCode.INSERT,
                            piece.sqlRedo(),
                            piece.timestampMillis(),
                            "A1",
                            more,
                            "SHOP",
                            "ITEMS",
                            "R1",
                            false,
                            null,
                            1,
                            1,
                            piece.rsId()));
        }
        rows.add(commit(103, "A1", 1, 1));
        feed(assembler, rows, 110);
        assertThat(sink.transactions().get(0).rowEvents().get(0).after()[1])
                .isEqualTo("x".repeat(30) + "'" + "y".repeat(5));
    }

    @Test
    void shouldRankEqualScnCommitsAlikeWhenRowsArriveInAnyOrder() throws Exception {
        Random random = new Random(18);
        Map<String, Long> first = null;
        for (int round = 0; round < 5; round++) {
            List<ContentsRow> commits =
                    new ArrayList<>(
                            List.of(
                                    commit(105, "C1", 2, 1),
                                    commit(105, "C2", 1, 9),
                                    commit(105, "C3", 1, 3),
                                    commit(105, "U9", 1, 5)));
            Collections.shuffle(commits, random);
            List<ContentsRow> rows = new ArrayList<>();
            for (String xid : List.of("C1", "C2", "C3")) {
                rows.add(control(101, OperationCode.START, xid));
                rows.add(dml(102, xid, "R" + xid, insert(xid.charAt(1), xid)));
            }
            rows.addAll(commits);
            CollectingSink into = new CollectingSink();
            feed(assembler(new ResumePosition(100, -1), into), rows, 110);
            Map<String, Long> scns = new HashMap<>();
            into.transactions().forEach(t -> scns.put(t.xid(), t.scn()));
            // thread 1 before thread 2; within thread 1 by RS_ID; U9 (not captured) still takes
            // rank 2
            assertThat(scns)
                    .containsEntry("C3", TimelineScn.of(105, 0))
                    .containsEntry("C2", TimelineScn.of(105, 2))
                    .containsEntry("C1", TimelineScn.of(105, 3));
            if (first != null) {
                assertThat(scns).isEqualTo(first);
            }
            first = scns;
        }
    }

    @Test
    void shouldRestartAtOldestOpenStartWhenTransactionSpansWindows() throws Exception {
        var assembler = assembler();
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "LONG"),
                        dml(102, "LONG", "R1", insert(1, "a"))),
                120);
        feed(
                assembler,
                List.of(
                        control(125, OperationCode.START, "S1"),
                        dml(126, "S1", "R2", insert(2, "b")),
                        commit(127, "S1", 1, 1)),
                140);
        ResumePosition afterShort =
                ResumePosition.parse(sink.transactions().get(0).resumePosition());
        assertThat(afterShort.restartScn()).isEqualTo(101);
        feed(
                assembler,
                List.of(dml(150, "LONG", "R3", insert(3, "c")), commit(160, "LONG", 1, 1)),
                170);
        assertThat(ids(sink.transactions().get(1))).containsExactly(1L, 3L);
        assertThat(ResumePosition.parse(sink.transactions().get(1).resumePosition()).restartScn())
                .isEqualTo(160);
    }

    @Test
    void shouldPublishEachCommitOnceWhenRestartedFromSavedPosition() throws Exception {
        List<ContentsRow> rows =
                List.of(
                        control(101, OperationCode.START, "LONG"),
                        dml(102, "LONG", "R1", insert(1, "a")),
                        control(103, OperationCode.START, "S1"),
                        dml(104, "S1", "R2", insert(2, "b")),
                        control(104, OperationCode.START, "S2"),
                        dml(104, "S2", "R4", insert(4, "d")),
                        commit(105, "S1", 1, 1),
                        commit(105, "S2", 1, 2),
                        dml(106, "LONG", "R3", insert(3, "c")),
                        commit(107, "LONG", 1, 1));
        feed(assembler(), rows, 110);
        assertThat(sink.transactions()).hasSize(3);
        for (int crashAfter = 0; crashAfter < 3; crashAfter++) {
            ResumePosition saved =
                    ResumePosition.parse(sink.transactions().get(crashAfter).resumePosition());
            CollectingSink again = new CollectingSink();
            var restarted = assembler(saved, again);
            feed(restarted, rows.stream().filter(r -> r.scn() >= saved.restartScn()).toList(), 110);
            List<String> expected =
                    sink.transactions().subList(crashAfter + 1, 3).stream()
                            .map(CollectingSink.Published::xid)
                            .toList();
            assertThat(again.transactions())
                    .extracting(CollectingSink.Published::xid)
                    .as("after crash %d", crashAfter)
                    .isEqualTo(expected);
            assertThat(again.transactions())
                    .extracting(CollectingSink.Published::scn)
                    .isEqualTo(
                            sink.transactions().subList(crashAfter + 1, 3).stream()
                                    .map(CollectingSink.Published::scn)
                                    .toList());
        }
    }

    @Test
    void shouldSkipRowsWhenTransactionBeganBeforeMining() throws Exception {
        var assembler = assembler();
        feed(
                assembler,
                List.of(
                        dml(101, "OLD", "R1", insert(1, "a")),
                        commit(102, "OLD", 1, 1),
                        control(103, OperationCode.START, "N1"),
                        dml(104, "N1", "R2", insert(2, "b")),
                        commit(105, "N1", 1, 1)),
                110);
        assertThat(sink.transactions())
                .extracting(CollectingSink.Published::xid)
                .containsExactly("N1");
        assertThat(sink.transactions().get(0).scn()).isEqualTo(TimelineScn.of(105, 0));
    }

    @Test
    void shouldPublishSchemaChangeWhenDdlRowCommits() throws Exception {
        var assembler = assembler();
        define(
                new OracleColumn("ID", OracleType.of("NUMBER", 22, 10, 0), false),
                new OracleColumn("NAME", OracleType.of("VARCHAR2", 40, null, null), true),
                new OracleColumn("PRICE", OracleType.of("NUMBER", 22, 8, 2), true));
        String ddl = "ALTER TABLE \"SHOP\".\"ITEMS\" ADD (\"PRICE\" NUMBER(8,2));";
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "D1"),
                        new ContentsRow(
                                102,
                                OperationCode.DDL,
                                ddl,
                                102_000,
                                "D1",
                                false,
                                "SHOP",
                                "ITEMS",
                                "AAAAAAAAAAAAAAAAAA",
                                false,
                                null,
                                1,
                                1,
                                rs(102, 1)),
                        commit(103, "D1", 1, 1),
                        control(104, OperationCode.START, "I1"),
                        dml(
                                105,
                                "I1",
                                "R1",
                                "insert into \"SHOP\".\"ITEMS\"(\"ID\",\"NAME\",\"PRICE\") values ('1','a','2.5');"),
                        commit(106, "I1", 1, 1)),
                110);
        ChangeEvent change = sink.transactions().get(0).events().get(0);
        assertThat(change.operation()).isEqualTo(Operation.SCHEMA_CHANGE);
        assertThat(change.ddl()).isEqualTo(ddl);
        assertThat(change.schema().version()).isEqualTo(2);
        assertThat(sink.transactions().get(1).rowEvents().get(0).after()[2]).hasToString("2.50");
    }

    @Test
    void shouldPublishHeartbeatAboveEveryCommitWhenWindowIsIdle() throws Exception {
        var registry = new SchemaRegistry();
        var router =
                new CaptureRouter(
                        TableFilter.of(List.of("SHOP.*"), List.of()),
                        CapturePlan.everything(),
                        registry);
        var assembler =
                new TransactionAssembler(
                        1,
                        router,
                        registry,
                        dictionary::get,
                        sink,
                        1 << 20,
                        Duration.ofNanos(1),
                        new ResumePosition(100, -1));
        assembler.bind(dictionary.get(ITEMS));
        sink.decodeWith(registry);
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "A1"),
                        dml(102, "A1", "R1", insert(1, "a")),
                        commit(103, "A1", 1, 1)),
                110);
        var heartbeat = sink.all().get(sink.all().size() - 1);
        assertThat(heartbeat.isHeartbeat()).isTrue();
        assertThat(heartbeat.scn()).isEqualTo(TimelineScn.heartbeat(110));
        assertThat(heartbeat.resumePosition())
                .isEqualTo("restart=111;published=" + TimelineScn.heartbeat(110));
        assertThat(assembler.nextScn()).isEqualTo(TimelineScn.of(111, 0));
    }

    private static ContentsRow lob(long scn, int op, String xid, String sql) {
        return new ContentsRow(
                scn, op, sql, 0, xid, false, "SHOP", "ITEMS", "R1", false, "", 1, 1, rs(scn, 1));
    }

    @Test
    void shouldRefuseTransactionAtCommitNamingTableAndColumnWhenItHoldsLobOperations()
            throws Exception {
        var assembler = assembler();
        feed(
                assembler,
                List.of(
                        control(101, OperationCode.START, "R1"),
                        lob(102, OperationCode.LOB_WRITE, "R1", null),
                        control(103, OperationCode.ROLLBACK, "R1"),
                        control(104, OperationCode.START, "A1"),
                        dml(105, "A1", "R1", insert(1, "a")),
                        commit(106, "A1", 1, 1)),
                110);
        assertThat(sink.transactions()).hasSize(1); // a rolled-back LOB write is no refusal
        assembler.row(control(111, OperationCode.START, "W1"));
        assembler.row(
                lob(
                        112,
                        OperationCode.SELECT_LOB_LOCATOR,
                        "W1",
                        "DECLARE \n loc_c CLOB; \n buf_c VARCHAR2(6426);\nBEGIN\n select \"NA\"\"ME\" into"
                                + " loc_c from \"SHOP\".\"ITEMS\" where \"ID\" = '1' for update;"));
        assembler.row(
                lob(
                        113,
                        OperationCode.LOB_WRITE,
                        "W1",
                        "buf_c := 'xyz';\n  dbms_lob.write(loc_c, 3, 1, buf_c);\nEND;"));
        assertThatThrownBy(() -> feed(assembler, List.of(commit(114, "W1", 1, 1)), 120))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("operation=SEL_LOB_LOCATOR")
                .hasMessageContaining("table=SHOP.ITEMS")
                .hasMessageContaining("column=NA\"ME")
                .hasMessageContaining("xid=W1");
        assertThat(sink.transactions()).hasSize(1); // nothing of W1 was published
    }

    @Test
    void shouldRefuseLobTrimAndEraseWhenNoLocatorWasRead() throws Exception {
        for (int op : new int[] {OperationCode.LOB_TRIM, OperationCode.LOB_ERASE}) {
            var assembler = assembler();
            assembler.row(control(101, OperationCode.START, "T1"));
            assembler.row(lob(102, op, "T1", "  dbms_lob.trim(loc_c, 0);"));
            assertThatThrownBy(() -> feed(assembler, List.of(commit(103, "T1", 1, 1)), 110))
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining(op == OperationCode.LOB_TRIM ? "LOB_TRIM" : "LOB_ERASE")
                    .hasMessageContaining("column=unknown");
        }
    }

    @Test
    void shouldEncodeTimelineScnWithOrdinalInLowBits() {
        assertThat(TimelineScn.of(5, 3)).isEqualTo((5L << 16) | 3);
        assertThat(TimelineScn.sourceScn(TimelineScn.of(281_474_976_710_655L >> 1, 7)))
                .isEqualTo(281_474_976_710_655L >> 1);
        assertThat(TimelineScn.heartbeat(5))
                .isLessThan(TimelineScn.of(6, 0))
                .isGreaterThan(TimelineScn.of(5, 65_534));
        assertThatThrownBy(() -> TimelineScn.of(1L << 47, 0)).hasMessageContaining("scn=");
        assertThatThrownBy(() -> TimelineScn.of(5, 65_535)).hasMessageContaining("ordinal=");
    }

    @Test
    void shouldRoundTripResumePositionWhenParsed() {
        assertThat(ResumePosition.parse("restart=12;published=-1"))
                .isEqualTo(new ResumePosition(12, -1));
        assertThat(ResumePosition.parse(new ResumePosition(7, 99).toString()))
                .isEqualTo(new ResumePosition(7, 99));
        assertThatThrownBy(() -> ResumePosition.parse("mysql-bin.000001:4"))
                .hasMessageContaining("value=mysql-bin.000001:4");
    }
}
